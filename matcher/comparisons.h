// Comparisons: the level two normalized values of one type reach, per
// comparison kind (docs/matching.md, "The matching model"). Levels are numbered
// best first; the last is "different". Pure functions of two canonical
// values; thread-safe.
//
//   name          exact, reordered, subset (one's words all in the other:
//                 a middle name, a patronymic, a second surname), nickname,
//                 initial, jaro_winkler_92, jaro_winkler_88, garbled (the
//                 surnames one or alike, the given names a typo, a scramble
//                 or a sound-alike of each other; or the given names so and
//                 the surnames a typo or a cut apart), single_token (one
//                 side a single word found in the other), surname_only
//                 (given names clearly differ: a relative), suffix_differs (Jr /
//                 Sr, II / III: father and son), different
//   birth_date    exact, day_month_swapped, one_off (one of day, month, year
//                 one apart or one digit off, or two digits transposed),
//                 two_off (two of them so), same_year (one side a year
//                 alone, written as 1 January), year_one_off (one side a
//                 year alone, the years one apart), weeks_apart (at most 31
//                 days apart), different,
//                 generation (fifteen years or more apart, not by a slip
//                 of one digit)
//   email         exact, one_edit, similar, different
//   phone, postal_code, opaque
//                 exact, different
//   address       exact, house_and_street, postal_code_only, different
//   document      exact, one_edit, different
//   text          exact, similar (Jaro–Winkler 0.88: a typo), different
//   organization  exact, same_core (the same words once legal forms and
//                 their spelling are set aside), similar (each word alike,
//                 in any order), different
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "matcher/model.h"

namespace idres {

// The level names of `kind`, best first.
const std::vector<std::string>& LevelNames(ComparisonKind kind);

// What CompareValues says of a pair that is evidence neither way: a value
// standing for none (the birth date 1900-01-01 that systems write when they
// have none). The pair is compared as if one side held no value.
inline constexpr std::size_t kNoEvidence = static_cast<std::size_t>(-1);

// The level (index into LevelNames(kind)) that `a` and `b` reach, or
// kNoEvidence.
std::size_t CompareValues(ComparisonKind kind, std::string_view a, std::string_view b);

// Whether `value` stands for none, so that every pair holding it is
// kNoEvidence: it makes no blocking key and training leaves it out. Cheap.
bool NoEvidence(ComparisonKind kind, std::string_view value);

// A canonical name split for comparison: a generational suffix (jr, sr,
// ii, iii, iv) at the end is set apart; of the other words the first is the
// given name and the last the surname (a single word is a surname, with no
// given name).
struct NameParts {
  std::string given, surname, suffix;
  std::vector<std::string> words;  // without the suffix
};
NameParts SplitName(std::string_view name);

// A canonical address's house number (first token with a digit that is no
// flat or unit number), street (the tokens after it up to a street type, or
// the next two; or else, as most of Europe writes it, up to three words just
// before it) and postal code (the last token with a digit after the street,
// a British or Canadian code in two parts joined); any may be empty.
struct AddressParts {
  std::string house, street, postal_code;
};
AddressParts SplitAddress(std::string_view address);

// A canonical organization name's core: its words without legal forms
// ("ltd", "gmbh", ...) and articles, spelled alike ("mueller" as
// "muller"), sorted and joined by one space. Empty when nothing is left.
std::string OrganizationCore(std::string_view organization);

// ComparisonKind <-> its name in the model file ("name", "birth_date", ...).
std::string_view ComparisonName(ComparisonKind kind);
bool ParseComparison(std::string_view name, ComparisonKind* kind);

}  // namespace idres
