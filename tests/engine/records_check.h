// StoreInconsistency: the invariants of a store that keeps records
// (docs/design.md, "Records, judgements and the change feed"), checked in SQL:
// every live person's identifiers are exactly the union of its records'
// values, and every live person has a record.
#pragma once

#include <string>

#include "tests/support/test_db.h"

namespace idres::testing {

// "" when the invariants hold, else what breaks them first.
std::string StoreInconsistency(const TestDatabase& db);

}  // namespace idres::testing
