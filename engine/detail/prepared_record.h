// PreparedRecord: a record after everything that needs no database —
// identifiers normalized (rejections kept with their reasons), traits
// validated, and the lock plan computed. Done before any transaction opens,
// so bad input never holds a lock or a connection. Internal to engine/.
#pragma once

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/record.h"
#include "matcher/lock_plan.h"
#include "normalize/normalizer.h"

namespace idres::detail {

// A stored record's identity: (source, record_id).
using RecordIdentity = std::pair<std::string, std::string>;

// What a prepared record asks of the chunk.
enum class Operation {
  kUpsert,  // apply the record, replacing a stored one of its identity when named
  kDelete,  // DeleteRecord: withdraw the stored record of its identity
  kSplit,   // SplitPerson: split_person's records into split_groups
};

struct PreparedRecord {
  Operation op = Operation::kUpsert;
  std::vector<Identifier> identifiers;  // normalized, sorted, unique
  std::vector<Rejection> rejected;
  Traits traits;
  // Its identity: the source (kDefaultSource when none was named) and the
  // record id, generated when none was named.
  std::string source, record_id;
  // The caller named record_id: a stored record of that identity is
  // replaced, so plan.lock_keys hold its record key (RecordLockKey).
  bool named = false;
  bool explain = false;  // Record::explain
  // Named: the values of the person a stored record of this identity
  // belonged to when the chunk was planned (their keys are in
  // plan.lock_keys).
  std::vector<Identifier> prior_values;
  // kSplit: the person, and the groups of its records each part is to hold
  // (the first keeps the id).
  std::int64_t split_person = 0;
  std::vector<std::vector<RecordIdentity>> split_groups;

  // Every stored record this one may touch: its own when named, and each
  // one the split names.
  std::vector<RecordIdentity> Identities() const {
    std::vector<RecordIdentity> out;
    if (named) out.emplace_back(source, record_id);
    for (const auto& group : split_groups) out.insert(out.end(), group.begin(), group.end());
    return out;
  }
  LockPlan plan;
  std::optional<std::string> error;  // set: the record is rejected whole
};

// Sorts `v` and drops repeats: the form of a record's identifiers and keys,
// and of a chunk's.
template <typename T>
void Dedup(std::vector<T>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// Thread-safe: all inputs are used read-only.
// The record (source, record_id) to be withdrawn by DeleteRecord: no values,
// its record key locked.
PreparedRecord PrepareDeletion(const std::string& source, const std::string& record_id);

// SplitPerson of `person` into `groups` (docs/design.md, "Records, judgements and
// the change feed"): every record key locked; `error` when the groups
// cannot split a person (fewer than two, an empty one, a record twice, an
// identity that names no record).
PreparedRecord PrepareSplit(std::int64_t person, std::vector<std::vector<RecordIdentity>> groups);

PreparedRecord PrepareRecord(const Record& record, const Normalizer& normalizer,
                             const LockPlanner& planner, const RecordLimits& limits);

}  // namespace idres::detail
