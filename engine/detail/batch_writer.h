// WriteBatch: what a BatchResolver decided for the records of one
// transaction, written in a few statements instead of several per record:
// one merge per surviving person that absorbed stored persons (they are rare,
// and each moves rows the database holds), one statement for every stored
// person that changed (kUpdatePersons), one for all new persons with their
// ids, identifiers, match keys, traits and redirects (kCreatePersons), and
// the COMMIT, all in one round trip. Internal to engine/.
#pragma once

#include <vector>

#include "engine/detail/batch_resolver.h"
#include "engine/detail/tx.h"
#include "engine/record.h"
#include "matcher/lock_plan.h"

namespace idres::detail {

// Writes `resolver`'s persons inside `tx`, commits it (with whatever else is
// pending, e.g. receipts), and replaces the provisional ids in `results`
// (person_id, merged_person_ids) with the real ones.
// Thread-safety: uses `tx` (one thread's) and const inputs only.
void WriteBatchAndCommit(Tx& tx, const BatchResolver& resolver, const LockPlanner& planner,
                         std::vector<UpsertResult*>& results);

}  // namespace idres::detail
