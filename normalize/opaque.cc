#include "normalize/opaque.h"

#include <string>

#include "normalize/detail/icu.h"
#include "normalize/detail/utf8.h"

namespace idres {

namespace nd = normalize_detail;

KindResult NormalizeOpaque(std::string_view input) {
  // ASCII is already NFC and has no format characters: no ICU call for the
  // usual hex and UUID ids.
  std::string id;
  if (nd::IsAscii(input)) {
    id = nd::TrimSpace(input);
  } else {
    const std::string visible = nd::WithoutFormatCharacters(input);
    id = nd::Nfc(nd::TrimSpace(visible));
  }
  if (id.empty()) return KindResult::Reject("the id is empty");
  if (id.size() > kMaxOpaqueBytes) return KindResult::Reject("the id is longer than 256 bytes");
  if (nd::HasControl(id)) return KindResult::Reject("the id contains a control character");
  return KindResult::Ok(std::move(id));
}

}  // namespace idres
