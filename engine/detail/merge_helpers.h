// Pieces shared by the upsert (single and batch) and reconcile
// transactions: identifiers to insert with their unique flags, a person's
// match keys, traits merged across persons, and what an update or merge
// changes. Pure (apart from a warning log); thread-safe. Internal to
// engine/.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/detail/store.h"
#include "engine/detail/variants.h"
#include "matcher/lock_plan.h"
#include "matcher/matcher.h"

namespace idres::detail {

// Most match keys stored for one person: a person can collect more weak
// values than one record may carry.
inline constexpr std::size_t kMaxPersonMatchKeys = 4096;

// `ids` as insert arrays, each flagged unique when its type is exclusive.
NewIdentifiers ToInsert(const std::vector<Identifier>& ids, const Model& model);

// Every key through which a person holding `ids`, with records of
// `variants`, can be found: each strong or exclusive value's key and every
// blocking key of its variants. What a change that moves the person's
// values (a withdrawn record) locks. Sorted, unique.
std::vector<std::int64_t> PersonLockKeys(const LockPlanner& planner,
                                         const std::vector<Identifier>& ids,
                                         const Variants& variants);

// `score` for people, without values: "email exact +9.1, name similar
// +3.2, birth_date different -6.6 = 5.7" (the comparisons that counted).
std::string ScoreText(const Score& score);

// Traits of all `persons`, least recently updated first so the latest
// committed write of a key wins, then `record`'s on top.
Traits MergedTraits(const std::vector<const StoredPerson*>& persons, const Traits& record);

// The record's values that may be stored: all but the unique values a
// person it does not match holds (they stay there), which are added to
// `rejected` with the reason.
std::vector<Identifier> OwnValues(std::span<const Identifier> record, const MatchDecision& d,
                                  std::vector<Rejection>& rejected);

// What updating the matched persons (survivor first; more than one is a
// merge) with a record's values `ids` and `traits` changes.
struct MergePlan {
  std::vector<Identifier> fresh;  // values of `ids` no matched person holds
  std::vector<Identifier> all;    // every value the survivor ends with, sorted
  Traits traits;                  // MergedTraits(matched, traits)
  bool unchanged = false;         // one person and nothing new: write nothing
};
MergePlan PlanMerge(const std::vector<const StoredPerson*>& matched,
                    const std::vector<Identifier>& ids, const Traits& traits);

// Why `plan` may not be applied: the record's traits would grow the
// survivor's past `cap`. Only the record's own keys count: the matched
// persons' traits together may exceed the cap (a person stored before the
// cap existed, or a merge the identifiers call for), and are kept. nullopt
// when the plan is fine.
std::optional<std::string> TraitsOverCap(const std::vector<const StoredPerson*>& matched,
                                         const MergePlan& plan, std::size_t cap);

}  // namespace idres::detail
