#include "normalize/document.h"

#include <unicode/uchar.h>

#include <string>

#include "normalize/detail/icu.h"
#include "normalize/detail/utf8.h"

namespace idres {
namespace {

namespace nd = normalize_detail;

// `s` (valid UTF-8) with only its letters and digits (NFKC composed the
// marks that belong to a letter first).
std::string Alphanumerics(std::string_view s) {
  return nd::KeepCodePoints(s, [](char32_t c) { return u_isalnum(static_cast<UChar32>(c)); });
}

}  // namespace

KindResult NormalizeDocument(std::string_view input) {
  std::string number;
  if (nd::IsAscii(input)) {
    for (char c : nd::AsciiUpper(input)) {
      if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) number.push_back(c);
    }
  } else {
    // Upper case and NFKC until stable (upper case can decompose: "ß" ->
    // "SS"; NFKC can compose).
    number = nd::UntilStable(std::string(input), 4, [](const std::string& s) {
      return Alphanumerics(nd::Upper(nd::Nfkc(s)));
    });
  }
  if (number.empty()) return KindResult::Reject("the document number has no letter or digit");
  return KindResult::Ok(std::move(number));
}

}  // namespace idres
