// Phonetic codes for surnames: Lawrence Philips's Double Metaphone (2000).
//
// Each name gets a primary code, its most likely English pronunciation, and
// an alternate for a second reading (Schmidt: XMT and SMT, so it meets
// Smith's SM0 and SMT). Codes hold at most 4 of "0AFHJKLMNPRSTX" ("0" is
// "th"), as in the reference and PostgreSQL's fuzzystrmatch dmetaphone() and
// dmetaphone_alt(): for ASCII input the codes equal theirs. The input is a
// normalized name; ASCII letters are read case-blind, spaces separate words
// as the rules expect ("van ", "san "), and every other byte is skipped,
// except the UTF-8 letters ç (read S) and ñ (read N), the two non-ASCII
// letters of the reference. Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace idres {

struct PhoneticCodes {
  std::string primary;
  // Equal to `primary` when the name has no second reading.
  std::string alternate;
};

// The Double Metaphone codes of `name`; both empty for a name without a
// letter that sounds (empty, "h", "w", digits).
PhoneticCodes DoubleMetaphone(std::string_view name);

// Whether the two names share a non-empty code (primary or alternate).
bool SoundAlike(std::string_view a, std::string_view b);

}  // namespace idres
