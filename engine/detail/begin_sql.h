// BeginSql: the text of the first message of every engine transaction, one
// simple query holding BEGIN ISOLATION LEVEL READ COMMITTED, SET LOCAL
// lock_timeout and, when there are keys, step 3's key locks (kLockKeys's
// statement with its array inlined). A simple query takes no parameters;
// every inlined value is a number the engine built, never input text.
// Pure function; thread-safe. Internal to engine/.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>

namespace idres::detail {

// `keys` sorted and unique; empty keys lock nothing.
std::string BeginSql(std::chrono::milliseconds lock_timeout, std::span<const std::int64_t> keys);

}  // namespace idres::detail
