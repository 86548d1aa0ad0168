#include "normalize/name.h"

#include <string>

#include "normalize/detail/icu.h"
#include "normalize/detail/utf8.h"

namespace idres {
namespace {

namespace nd = normalize_detail;

// One pass: to Latin, to ASCII, lower case, NFKC. False without ICU data.
bool Pass(std::string_view text, std::string& out) {
  std::string latin;
  if (!nd::TransliterateToAscii(text, latin)) return false;
  out = nd::Nfkc(nd::Lower(latin));
  return true;
}

// Passes until the text no longer changes, so that normalizing a normalized
// name gives it back: lower case can expose letters the transliterator maps
// only in lower case (U+01F6 "Ƕ" -> "ƕ" -> "hv"). ASCII text is stable.
bool ToStableLatin(std::string_view input, std::string& out) {
  std::string text = nd::Nfkc(input);
  for (int round = 0; round < 4; ++round) {
    if (!Pass(text, out)) return false;
    if (out == text || nd::IsAscii(out)) return true;
    text = out;
  }
  return true;
}

}  // namespace

KindResult NormalizeName(std::string_view input) {
  std::string name;
  if (nd::IsAscii(input)) {
    name = nd::CollapseSpace(nd::AsciiLower(input));
  } else {
    std::string latin;
    if (!ToStableLatin(nd::WithoutFormatCharacters(input), latin)) {
      return KindResult::Reject("the name could not be transliterated (ICU data missing)");
    }
    name = nd::CollapseSpace(latin);
  }
  if (name.empty()) return KindResult::Reject("the name is empty");
  // A lone accent or punctuation is not a name, and would match no one.
  if (!nd::HasLetter(name)) return KindResult::Reject("the name has no letter");
  if (nd::HasControl(name)) return KindResult::Reject("the name contains a control character");
  return KindResult::Ok(std::move(name));
}

}  // namespace idres
