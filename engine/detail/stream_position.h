// The stream position a BatchUpsert with a StreamPosition (engine/record.h)
// moves, chunk by chunk, inside the chunks' transactions: a compare-and-set
// on the partition's row of stream_positions, row-locked after the chunk's
// key locks and written with its records. Internal to engine/.
#pragma once

#include <cstdint>
#include <optional>

#include "engine/detail/tx.h"
#include "engine/record.h"

namespace idres::detail {

// Row-locks `p`'s stored position in `tx` (one round trip, or with the
// opening statements when it is the first) and throws PositionMovedError
// unless it is `expected` (nullopt: none stored).
void LockStreamPosition(Tx& tx, const StreamPosition& p, std::optional<std::int64_t> expected);

// Queues (Tx::Defer) the write that moves `p`'s stored position from
// `expected`, which LockStreamPosition found in `tx`, to `next`.
void WriteStreamPosition(Tx& tx, const StreamPosition& p, std::optional<std::int64_t> expected,
                         std::int64_t next);

}  // namespace idres::detail
