#include "engine/detail/prepared_record.h"

#include "engine/detail/record_identity.h"
#include "engine/detail/traits_codec.h"

namespace idres::detail {
namespace {

// Sets the identity of `out` from the caller's words; false (and `error`
// set) when they cannot name a record.
bool SetIdentity(PreparedRecord& out, const std::string& source, const std::string& record_id) {
  if (auto bad = ValidateRecordIdentity(source, record_id)) {
    out.error = *bad;
    return false;
  }
  out.source = source.empty() ? kDefaultSource : source;
  out.named = !record_id.empty();
  out.record_id = out.named ? record_id : GenerateRecordId();
  return true;
}

void LockRecordKey(PreparedRecord& out) {
  if (!out.named) return;
  out.plan.lock_keys.push_back(RecordLockKey(out.source, out.record_id));
  Dedup(out.plan.lock_keys);
}

}  // namespace

PreparedRecord PrepareDeletion(const std::string& source, const std::string& record_id) {
  PreparedRecord out;
  out.op = Operation::kDelete;
  if (record_id.empty()) {
    out.error = "record_id is required";
    return out;
  }
  if (SetIdentity(out, source, record_id)) LockRecordKey(out);
  return out;
}

PreparedRecord PrepareSplit(std::int64_t person, std::vector<std::vector<RecordIdentity>> groups) {
  PreparedRecord out;
  out.op = Operation::kSplit;
  out.split_person = person;
  out.source = kDefaultSource;
  out.record_id = GenerateRecordId();  // names nothing: a split applies no record
  if (groups.size() < 2) {
    out.error = "a split needs at least two groups of records";
    return out;
  }
  std::set<RecordIdentity> seen;
  for (const auto& group : groups) {
    if (group.empty()) {
      out.error = "a group of the split names no record";
      return out;
    }
    for (const auto& [source, record_id] : group) {
      if (auto bad = ValidateRecordIdentity(source, record_id)) {
        out.error = *bad;
        return out;
      }
      if (record_id.empty()) {
        out.error = "a record of the split has no record_id";
        return out;
      }
      if (!seen.insert({source.empty() ? kDefaultSource : source, record_id}).second) {
        out.error = "record '" + record_id + "' of source '" + source + "' is in two groups";
        return out;
      }
    }
  }
  for (auto& group : groups) {
    for (auto& [source, record_id] : group) {
      if (source.empty()) source = kDefaultSource;
      out.plan.lock_keys.push_back(RecordLockKey(source, record_id));
    }
  }
  Dedup(out.plan.lock_keys);
  out.split_groups = std::move(groups);
  return out;
}

PreparedRecord PrepareRecord(const Record& record, const Normalizer& normalizer,
                             const LockPlanner& planner, const RecordLimits& limits) {
  PreparedRecord out;
  out.explain = record.explain;
  if (!SetIdentity(out, record.source, record.record_id)) return out;
  if (auto over = limits.Refusal(record)) {
    out.error = std::move(over);
    return out;
  }
  for (const RawIdentifier& raw : record.identifiers) {
    NormalizeResult r = normalizer.Normalize(raw.type, raw.value, record.default_region);
    if (auto* id = std::get_if<Identifier>(&r)) {
      out.identifiers.push_back(std::move(*id));
    } else {
      out.rejected.push_back(std::get<Rejection>(std::move(r)));
    }
  }
  Dedup(out.identifiers);
  if (out.identifiers.empty()) {
    out.error = "no valid identifier";
    return out;
  }
  if (auto bad = ValidateTraits(record.traits)) {
    out.error = *bad;
    return out;
  }
  out.traits = record.traits;
  out.plan = planner.Plan(out.identifiers);
  if (out.plan.error) out.error = out.plan.error;
  LockRecordKey(out);
  return out;
}

}  // namespace idres::detail
