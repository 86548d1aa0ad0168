// WriteBatch: what a BatchResolver decided for one chunk, written in a few
// multi-row statements instead of several per record: one to hand out the
// ids of the created persons, one merge per surviving person that absorbed
// stored persons (they are rare, and each moves rows the database holds),
// and one statement for all new persons, identifiers, match keys, trait
// updates and redirects. Internal to engine/.
#pragma once

#include <vector>

#include "engine/detail/batch_resolver.h"
#include "engine/detail/tx.h"
#include "engine/record.h"
#include "matcher/lock_plan.h"

namespace idres::detail {

// Writes `resolver`'s persons inside `tx` and replaces the provisional ids
// in `results` (person_id, merged_person_ids) with the real ones. Only the
// id allocation is a round trip of its own; the writes are Defer()red and go
// out with the transaction's next message, its COMMIT.
// Thread-safety: uses `tx` (one thread's) and const inputs only.
void WriteBatch(Tx& tx, const BatchResolver& resolver, const LockPlanner& planner,
                const MatchConfig& config, std::vector<UpsertResult*>& results);

}  // namespace idres::detail
