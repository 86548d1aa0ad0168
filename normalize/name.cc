#include "normalize/name.h"

#include <string>

#include "normalize/detail/icu.h"
#include "normalize/detail/utf8.h"

namespace idres {
namespace {

namespace nd = normalize_detail;

// Lower case and NFKC until stable, as for email: transliteration can leave
// text that lowering or NFKC would change again.
std::string LowerNfkc(std::string text) {
  for (int round = 0; round < 3; ++round) {
    std::string again = nd::Nfkc(nd::Lower(text));
    if (again == text) break;
    text = std::move(again);
  }
  return text;
}

}  // namespace

KindResult NormalizeName(std::string_view input) {
  std::string name;
  if (nd::IsAscii(input)) {
    name = nd::CollapseSpace(nd::AsciiLower(input));
  } else {
    std::string latin;
    if (!nd::TransliterateToAscii(nd::Nfkc(input), latin)) {
      return KindResult::Reject("the name could not be transliterated (ICU data missing)");
    }
    name = nd::CollapseSpace(LowerNfkc(std::move(latin)));
  }
  if (name.empty()) return KindResult::Reject("the name is empty");
  if (nd::HasControl(name)) return KindResult::Reject("the name contains a control character");
  return KindResult::Ok(std::move(name));
}

}  // namespace idres
