// What a person is made of once a record is withdrawn from it (docs/design.md,
// "Records, judgements and the change feed"): its remaining records
// replayed, in the order they were written, as upserts of one person's
// records, so that the records that no longer hold together under the model
// become separate persons; and the values and traits of each part. Pure
// (the matcher and key derivation only); thread-safe. Internal to engine/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <span>
#include <vector>

#include "engine/detail/store.h"
#include "matcher/lock_plan.h"
#include "matcher/matcher.h"

namespace idres::detail {

// The parts `records` (oldest first) fall into: each record joins the parts
// it matches — found through a shared strong value that is not generic, or
// a blocking key that is not generic, and decided by Matcher::Decide with
// `counts` — bridging several into one; a record that matches none starts a
// part. A record without values joins the first part. Parts holding records
// of one bond (a steward's AlwaysMatch) are then joined. Each part lists its
// records' indexes ascending; the part of the oldest record comes first, the
// others in the order of their oldest records. No records: no parts.
std::vector<std::vector<std::size_t>> HoldTogether(const Matcher& matcher,
                                                   const LockPlanner& planner,
                                                   std::span<const StoredRecord> records,
                                                   const ValueCounts& counts,
                                                   const std::set<std::int64_t>& generic_keys);

// The union of the records' values, sorted.
std::vector<Identifier> UnionOfValues(std::span<const StoredRecord* const> records);

// The records' traits folded least recently written first (updated_at, then
// row), so the last written record wins each key.
Traits FoldTraits(std::span<const StoredRecord* const> records);

}  // namespace idres::detail
