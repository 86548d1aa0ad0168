#include "normalize/postal_code.h"

#include <unicode/uchar.h>

#include <string>

#include "normalize/detail/icu.h"
#include "normalize/detail/utf8.h"

namespace idres {
namespace {

namespace nd = normalize_detail;

bool Dropped(char32_t c) {
  return nd::IsUnicodeSpace(c) || u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_DASH);
}

// `s` (valid UTF-8) without whitespace and dash characters.
std::string WithoutSpacesAndDashes(std::string_view s) {
  return nd::KeepCodePoints(s, [](char32_t c) { return !Dropped(c); });
}

// NFKC, upper case and removal until the text no longer changes: removing a
// space can join a letter with a combining mark that NFKC then composes
// ("A \u030A" -> "A\u030A" -> "\u00C5"), and NFKC can make new spaces
// ("\u00A8" -> " \u0308"). ASCII text is stable after one pass.
std::string StableCode(std::string_view input) {
  return nd::UntilStable(std::string(input), 4, [](const std::string& code) {
    return WithoutSpacesAndDashes(nd::Upper(nd::Nfkc(code)));
  });
}

}  // namespace

KindResult NormalizePostalCode(std::string_view input) {
  std::string code =
      nd::IsAscii(input) ? WithoutSpacesAndDashes(nd::AsciiUpper(input)) : StableCode(input);
  if (code.empty()) return KindResult::Reject("the postal code is empty");
  if (nd::HasControl(code)) {
    return KindResult::Reject("the postal code contains a control character");
  }
  return KindResult::Ok(std::move(code));
}

}  // namespace idres
