// PostgreSQL array literals: the engine binds '{...}' as a text parameter
// and casts it in the statement ($1::bigint[]).
// Pure functions; thread-safe. Internal to engine/.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace idres::detail {

// {"a","b\"c"}: every element quoted, backslash and double quote escaped,
// so any text (including "NULL", commas and braces) survives.
std::string TextArray(std::span<const std::string> values);

// {1,-2,3}
std::string BigintArray(std::span<const std::int64_t> values);

// {t,f}
std::string BoolArray(const std::vector<bool>& values);

}  // namespace idres::detail
