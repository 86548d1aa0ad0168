// Opaque-id normalizer kind (cookie, device_id, customer_id): ids are
// compared as issued, so only what no issuer means is removed.
//
// Trims Unicode whitespace and applies NFC; case is kept. The result must be
// non-empty, at most 256 bytes and free of control characters.
// Pure function; thread-safe.
#pragma once

#include <string_view>

#include "normalize/kind_result.h"

namespace idres {

inline constexpr std::size_t kMaxOpaqueBytes = 256;

// The canonical id for `input` (valid UTF-8), or why it is not one.
KindResult NormalizeOpaque(std::string_view input);

}  // namespace idres
