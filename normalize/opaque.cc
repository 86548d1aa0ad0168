#include "normalize/opaque.h"

#include <string>

#include "normalize/detail/icu.h"
#include "normalize/detail/utf8.h"

namespace idres {

namespace nd = normalize_detail;

KindResult NormalizeOpaque(std::string_view input) {
  const std::string_view trimmed = nd::TrimSpace(input);
  // ASCII is already NFC: no ICU call for the usual hex and UUID ids.
  std::string id = nd::IsAscii(trimmed) ? std::string(trimmed) : nd::Nfc(trimmed);
  if (id.empty()) return KindResult::Reject("the id is empty");
  if (id.size() > kMaxOpaqueBytes) return KindResult::Reject("the id is longer than 256 bytes");
  if (nd::HasControl(id)) return KindResult::Reject("the id contains a control character");
  return KindResult::Ok(std::move(id));
}

}  // namespace idres
