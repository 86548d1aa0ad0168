// ReadRecordSnapshot: every stored record's values, read for `idres train`
// in one REPEATABLE READ, READ ONLY transaction — one snapshot, so a store
// that keeps changing is read as it was at one moment — without a lock a
// writer could wait on (plain reads take none that writers conflict with)
// and without changing anything. Records come in the order they were first
// stored, a page at a time, so memory holds one page.
//
// Thread-safety: a free function; each call opens its own connection.
// Errors: EngineError (engine/errors.h); StoreError when the database
// holds no idres store.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "normalize/identifier.h"

namespace idres {

// Calls `count` once with the number of stored records, then `each` with
// every record's normalized values (sorted; possibly none), oldest first.
void ReadRecordSnapshot(const std::string& url, const std::function<void(std::uint64_t)>& count,
                        const std::function<void(std::vector<Identifier>&&)>& each);

}  // namespace idres
