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
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    if (!Dropped(nd::NextCodePoint(s, i))) out.append(s.substr(start, i - start));
  }
  return out;
}

}  // namespace

KindResult NormalizePostalCode(std::string_view input) {
  const std::string upper = nd::IsAscii(input) ? nd::AsciiUpper(input) : nd::Upper(nd::Nfkc(input));
  std::string code = WithoutSpacesAndDashes(upper);
  if (code.empty()) return KindResult::Reject("the postal code is empty");
  if (nd::HasControl(code))
    return KindResult::Reject("the postal code contains a control character");
  return KindResult::Ok(std::move(code));
}

}  // namespace idres
