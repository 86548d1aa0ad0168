// Comparisons: the level two normalized values of one type reach, per
// comparison kind (README.md, "The matching model"). Levels are numbered
// best first; the last is "different". Pure functions of two canonical
// values; thread-safe.
//
//   name        exact, reordered, nickname, initial, jaro_winkler_92,
//               jaro_winkler_88, surname_phonetic (given names agree),
//               surname_only (given names differ: a relative), different
//   birth_date  exact, day_month_swapped, one_off (one of day, month, year
//               one apart or one digit off, or two digits transposed),
//               two_off (two of them so), within_two_years, different
//   email       exact, one_edit, similar, different
//   phone, postal_code, opaque
//               exact, different
//   address     exact, house_and_street, postal_code_only, different
//   document    exact, one_edit, different
//   text        exact, similar (Jaro–Winkler 0.88: a typo), different
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "matcher/model.h"

namespace idres {

// The level names of `kind`, best first.
const std::vector<std::string>& LevelNames(ComparisonKind kind);

// The level (index into LevelNames(kind)) that `a` and `b` reach.
std::size_t CompareValues(ComparisonKind kind, std::string_view a, std::string_view b);

// A canonical name split for comparison: the first token is the given name,
// the last the surname (a single token is a surname).
struct NameParts {
  std::string given, surname;
};
NameParts SplitName(std::string_view name);

// A canonical address's house number (first token with a digit), street (the
// tokens after it up to a street type, or the next two) and postal code (the
// last token with a digit, when it is not the house number); any may be empty.
struct AddressParts {
  std::string house, street, postal_code;
};
AddressParts SplitAddress(std::string_view address);

// ComparisonKind <-> its name in the model file ("name", "birth_date", ...).
std::string_view ComparisonName(ComparisonKind kind);
bool ParseComparison(std::string_view name, ComparisonKind* kind);

}  // namespace idres
