// Postal-code normalizer kind: "sw1a 1aa", "SW1A-1AA" and "SW1A1AA" compare
// equal.
//
// NFKC, full upper case (root locale), and every whitespace and dash
// character (Unicode Dash property, e.g. "-", U+2010, U+2212) removed. The
// result must not be empty. Pure function; thread-safe.
#pragma once

#include <string_view>

#include "normalize/kind_result.h"

namespace idres {

// The canonical postal code for `input` (valid UTF-8), or why it is not one.
KindResult NormalizePostalCode(std::string_view input);

}  // namespace idres
