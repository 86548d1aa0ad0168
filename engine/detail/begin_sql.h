// BeginCalls: the statements that open every engine transaction: BEGIN
// ISOLATION LEVEL READ COMMITTED, its lock_timeout (and statement_timeout,
// when the caller has a deadline) for this transaction alone, and, when
// there are keys, step 3's key locks. They travel in the transaction's
// first message (engine/detail/tx.h); the timeouts and keys are parameters,
// nothing is spliced into the SQL.
// Pure function; thread-safe. Internal to engine/.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/deadline.h"
#include "engine/detail/pg_conn.h"

namespace idres::detail {

// The time limits of one transaction.
struct Timeouts {
  std::chrono::milliseconds lock{2000};
  // Unset: the session's statement_timeout stays in force.
  std::optional<std::chrono::milliseconds> statement;
  // The caller's: no message of the transaction is sent once it passed.
  Deadline deadline;
};

// `keys` sorted and unique; empty keys lock nothing. One call per
// statement, in order.
std::vector<Call> BeginCalls(const Timeouts& timeouts, std::span<const std::int64_t> keys);

}  // namespace idres::detail
