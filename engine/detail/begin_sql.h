// BeginStatements: the statements that open every engine transaction:
// BEGIN ISOLATION LEVEL READ COMMITTED, SET LOCAL lock_timeout (and
// statement_timeout, when the caller has a deadline) and, when there are
// keys, step 3's key locks: EXECUTE of the prepared kLockKeys when
// prepared statements are on (its generic plan, nothing parsed or planned per
// call), else kLockKeys's statement itself. They travel as one simple query
// (engine/detail/tx.h), which takes no parameters, so the key array is
// inlined; every inlined value is a number the engine built, never input
// text.
// Pure function; thread-safe. Internal to engine/.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/deadline.h"

namespace idres::detail {

// The time limits of one transaction.
struct Timeouts {
  std::chrono::milliseconds lock{2000};
  // Unset: the session's statement_timeout stays in force.
  std::optional<std::chrono::milliseconds> statement;
  // The caller's: no message of the transaction is sent once it passed.
  Deadline deadline;
};

// `keys` sorted and unique; empty keys lock nothing. `prepared`: kLockKeys
// is prepared on the connection under its name. One statement per element,
// in order.
std::vector<std::string> BeginStatements(const Timeouts& timeouts,
                                         std::span<const std::int64_t> keys, bool prepared);

}  // namespace idres::detail
