#include "normalize/utf8.h"

#include "normalize/detail/utf8.h"

namespace idres {

std::optional<std::size_t> FindInvalidUtf8(std::string_view s) {
  const std::size_t at = normalize_detail::InvalidUtf8At(s);
  if (at == std::string_view::npos) return std::nullopt;
  return at;
}

std::string ToValidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  while (true) {
    const std::size_t at = normalize_detail::InvalidUtf8At(s);
    if (at == std::string_view::npos) return out.append(s);
    out.append(s.substr(0, at)).append("\xEF\xBF\xBD");
    s.remove_prefix(at + 1);
  }
}

}  // namespace idres
