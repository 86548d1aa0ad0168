// Traits to and from the database: validation of a record's traits, the
// three parallel arrays the SQL builds jsonb from, and the rows jsonb_each
// gives back. Pure functions; thread-safe. Internal to engine/.
#pragma once

#include <optional>
#include <string>

#include "engine/record.h"

namespace idres::detail {

inline constexpr std::size_t kMaxTraitKeyBytes = 256;
inline constexpr std::size_t kMaxTraitValueBytes = 64 * 1024;

// Why `traits` cannot be stored (invalid UTF-8, NUL, empty or long key,
// long string, number not finite), or nullopt when they can.
std::optional<std::string> ValidateTraits(const Traits& traits);

// One value as its kind ("string", "number", "boolean") and its text.
struct EncodedTrait {
  std::string kind, text;
};
EncodedTrait EncodeTrait(const TraitValue& value);

// One jsonb_each row back: jsonb type name and its text (#>> '{}').
TraitValue DecodeTrait(const std::string& jsonb_type, const std::string& text);

}  // namespace idres::detail
