// BeginSql: the text of the first message of every engine transaction, one
// simple query holding BEGIN ISOLATION LEVEL READ COMMITTED, SET LOCAL
// lock_timeout and, when there are keys, step 3's key locks: EXECUTE of the
// prepared kLockKeys when prepared statements are on (its generic plan,
// nothing parsed or planned per call), else kLockKeys's statement itself. A
// simple query takes no parameters, so the key array is inlined; every
// inlined value is a number the engine built, never input text.
// Pure function; thread-safe. Internal to engine/.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>

namespace idres::detail {

// `keys` sorted and unique; empty keys lock nothing. `prepared`: kLockKeys
// is prepared on the connection under its name.
std::string BeginSql(std::chrono::milliseconds lock_timeout, std::span<const std::int64_t> keys,
                     bool prepared);

}  // namespace idres::detail
