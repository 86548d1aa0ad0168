// UTF-8 checks for text that must be UTF-8 before it goes on: JSON (RFC 8259)
// and proto3 strings must be, and so must every identifier. Used by the RPC
// service (refusing a body, or showing a rejected input in a message) and by
// the batch jobs (what an import can send, what a checkpoint stores). Well-
// formed means Unicode Table 3-7: no overlong forms, no surrogates, nothing
// above U+10FFFF, no truncated sequences. Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace idres {

// The byte offset of the first invalid UTF-8 sequence in `s`, or nullopt.
std::optional<std::size_t> FindInvalidUtf8(std::string_view s);

// `s` with every byte that is not part of a valid sequence replaced by U+FFFD.
std::string ToValidUtf8(std::string_view s);

}  // namespace idres
