// BlockingKeys: every training record's blocking keys, derived by the
// engine's own LockPlanner (matcher/lock_plan.h) one rule at a time, and
// the pairs of records they bring together — the candidate pairs the
// model's blocking rules produce. A key held by more than the model's
// key_cap records is generic, as in the engine, and pairs no one.
// Thread-safety: immutable after construction; ForEachPair may be called
// from any number of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "matcher/model.h"
#include "train/record_table.h"

namespace idres::train {

class BlockingKeys {
 public:
  BlockingKeys(const RecordTable& table, const Model& model);

  std::size_t rules() const { return rules_; }

  // The number of pairs rule `rule`'s keys make (a pair sharing several
  // of its keys counted at each): what ForEachPair visits at most.
  std::uint64_t PairsBefore(std::size_t rule) const;

  // Calls fn(a, b), a < b, once for every pair of records sharing a
  // non-generic key of rule `rule`. With `first_only`, a pair that also
  // shares a key of an earlier rule is left to that rule, so that over all
  // rules each pair comes once. With `keep` below 1, only the pairs whose
  // PairHash(seed, a, b) falls in that fraction are visited.
  void ForEachPair(std::size_t rule, bool first_only, double keep, std::uint64_t seed,
                   const std::function<void(std::size_t, std::size_t)>& fn) const;

 private:
  struct Entry {
    std::uint64_t key;
    std::uint32_t rule;
    auto operator<=>(const Entry&) const = default;
  };
  // Whether `a` and `b` share no non-generic key of a rule before `rule`,
  // and `key` is the smallest non-generic one of `rule` they share.
  bool FirstVisit(std::size_t a, std::size_t b, std::size_t rule, std::uint64_t key,
                  bool first_only) const;
  bool Generic(std::uint64_t key) const;
  // The (key, record) pairs of `rule`, sorted.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> Holders(std::size_t rule) const;

  std::size_t rules_ = 0;
  std::size_t key_cap_ = 0;
  std::vector<Entry> entries_;  // per record, sorted by key
  std::vector<std::uint64_t> starts_{0};
  std::vector<std::uint64_t> generic_;  // sorted
};

}  // namespace idres::train
