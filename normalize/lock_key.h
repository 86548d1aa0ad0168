// Lock keys: the 64-bit numbers idres passes to pg_advisory_xact_lock and
// stores as match keys. A public contract, documented in docs/design.md ("Lock keys").
//
//   key(type, value) = first 8 bytes of SHA-256("<type>:<value>"),
//                      read big-endian as a signed 64-bit integer.
//   e.g. key("email", "anna@example.com") = -3172799000671390164
//
// Any other program can take the same locks (Node.js:
// crypto.createHash("sha256").update(s).digest().readBigInt64BE(0)).
//
// A composite key covers several weak values that only reach the match
// threshold together: its parts "<type>:<value>" are sorted bytewise, joined
// with U+001F (no normalized value contains a control character), and the
// joined string is hashed the same way.
//
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "normalize/identifier.h"

namespace idres {

inline constexpr char kCompositeKeySeparator = '\x1f';

// First 8 bytes of SHA-256(bytes), big-endian, as int64.
std::int64_t KeyOfBytes(std::string_view bytes);

// key("<type>:<value>").
std::int64_t LockKey(std::string_view type, std::string_view value);
inline std::int64_t LockKey(const Identifier& id) { return LockKey(id.type, id.value); }

// Composite key over `parts` (order does not matter; at least one part).
std::int64_t CompositeLockKey(std::span<const Identifier> parts);

// "<type>:<value>", one part of a key as it is hashed.
std::string KeyPart(std::string_view type, std::string_view value);

// Composite key over parts already written by KeyPart: a blocking rule
// writes each of its values' parts once, not once per key. Sorts `parts`.
std::int64_t CompositeKeyOfParts(std::span<std::string_view> parts);

}  // namespace idres
