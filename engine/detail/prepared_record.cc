#include "engine/detail/prepared_record.h"

#include "engine/detail/traits_codec.h"

namespace idres::detail {

PreparedRecord PrepareRecord(const Record& record, const Normalizer& normalizer,
                             const LockPlanner& planner, const RecordLimits& limits) {
  PreparedRecord out;
  if (record.identifiers.size() > limits.max_identifiers) {
    out.error = "too many identifiers: " + std::to_string(record.identifiers.size()) +
                " (at most " + std::to_string(limits.max_identifiers) + ")";
    return out;
  }
  if (record.traits.size() > limits.max_traits) {
    out.error = "too many traits: " + std::to_string(record.traits.size()) + " (at most " +
                std::to_string(limits.max_traits) + ")";
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
  return out;
}

}  // namespace idres::detail
