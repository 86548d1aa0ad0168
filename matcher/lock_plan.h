// LockPlanner: from a record's normalized identifiers, the advisory lock keys
// its upsert takes and the match keys its candidate read uses.
//
// Rules (README.md, "Lock keys"): each value of a strong type (weight alone
// reaches the threshold) and each value of a unique type is locked alone;
// each minimal combination of weak types that reaches the threshold together
// contributes one composite key per choice of one record value per type.
// Composite keys are both lock keys and match keys: a person stores the
// composite keys of all its weak values (table match_keys), so the candidate
// read never scans everyone who shares one postal code, and two records that
// could match together always share at least one locked key. Records sharing
// a single weak value share no key and do not wait on each other.
//
// Thread-safety: immutable after construction; all methods are const and may
// be called from any number of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "matcher/match_config.h"
#include "normalize/identifier.h"

namespace idres {

struct LockPlan {
  std::vector<std::int64_t> lock_keys;   // sorted ascending, no duplicates
  std::vector<std::int64_t> match_keys;  // composite keys, sorted, unique
  std::vector<Identifier> lookups;       // strong and unique values, sorted
  std::optional<std::string> error;      // set: the record cannot be planned
};

class LockPlanner {
 public:
  // Most composite keys one record (or one person) may produce.
  static constexpr std::size_t kDefaultMaxCombinations = 256;

  explicit LockPlanner(MatchConfig config, std::size_t max_combinations = kDefaultMaxCombinations);

  // The plan for a record holding `identifiers` (duplicates allowed). Sets
  // `error` when the weak values would produce more than max_combinations
  // composite keys.
  LockPlan Plan(std::span<const Identifier> identifiers) const;

  // The composite match keys of a person holding `identifiers`, sorted and
  // unique. A person may hold more weak values than a record; the result is
  // capped at `cap` keys and `*truncated` says whether the cap was hit.
  std::vector<std::int64_t> MatchKeys(std::span<const Identifier> identifiers, std::size_t cap,
                                      bool* truncated) const;

  const MatchConfig& config() const { return config_; }
  // The minimal weak type sets (weak_sets.h), computed once.
  const std::vector<std::vector<std::string>>& weak_sets() const { return weak_sets_; }

 private:
  MatchConfig config_;
  std::size_t max_combinations_;
  std::vector<std::vector<std::string>> weak_sets_;
};

}  // namespace idres
