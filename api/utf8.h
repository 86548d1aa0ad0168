// UTF-8 checks for what arrives on the wire. JSON must be UTF-8 (RFC 8259)
// and proto3 strings must be too; the handler refuses anything else with a
// reason instead of passing it on. Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace idres::api {

// The byte offset of the first invalid UTF-8 sequence in `s` (overlongs,
// surrogates and code points above U+10FFFF count as invalid), or nullopt.
std::optional<std::size_t> FindInvalidUtf8(std::string_view s);

// `s` with every invalid sequence replaced by U+FFFD.
std::string ToValidUtf8(std::string_view s);

}  // namespace idres::api
