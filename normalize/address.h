// Address normalizer kind: one postal address as a line of words that
// compare equal however they were written, while house number, street and
// postal code stay recognisable for the address comparison.
//
// The text becomes a name would (NFKC, transliterated to ASCII, lower case:
// normalize/name.h); punctuation becomes a space (a hyphen between digits,
// "12-14", is kept); the common street types, unit designators and compass
// words take their USPS abbreviation ("Street" and "St." -> "st", "Avenue"
// -> "ave", "Apartment" and "#" -> "apt", "North" -> "n", "Fifth" -> "5th");
// a country's letters before a postal code go ("D-10115" -> "10115");
// spaces collapse.
// "12, Main Street, Apartment 4" and "12 main st apt 4" are one value.
// Pure function; thread-safe. Normalizing the output gives it back.
#pragma once

#include <string_view>

#include "normalize/kind_result.h"

namespace idres {

// The canonical address for `input` (valid UTF-8), or why it is not one.
KindResult NormalizeAddress(std::string_view input);

}  // namespace idres
