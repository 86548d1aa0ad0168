// Pieces shared by the upsert and reconcile transactions: identifiers to
// insert with their unique flags, a person's match keys, and traits merged
// across persons. Pure (apart from a warning log); thread-safe. Internal to
// engine/.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/detail/store.h"
#include "matcher/lock_plan.h"

namespace idres::detail {

// Most match keys stored for one person: a person can collect more weak
// values than one record may carry.
inline constexpr std::size_t kMaxPersonMatchKeys = 4096;

// `ids` as insert arrays, each flagged unique per `config`.
NewIdentifiers ToInsert(const std::vector<Identifier>& ids, const MatchConfig& config);

// The match keys of a person holding `ids` (capped, with a warning).
std::vector<std::int64_t> PersonMatchKeys(const LockPlanner& planner,
                                          const std::vector<Identifier>& ids);

// Traits of all `persons`, least recently updated first so the latest
// committed write of a key wins, then `record`'s on top.
Traits MergedTraits(const std::vector<const StoredPerson*>& persons, const Traits& record);

}  // namespace idres::detail
