#include "engine/detail/traits_codec.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace idres::detail {

bool IsStorableText(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == 0) return false;
    if (c < 0x80) {
      ++i;
      continue;
    }
    const int extra = (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    if (extra < 0 || i + extra >= s.size()) return false;
    std::uint32_t cp = c & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    static constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
    i += extra + 1;
  }
  return true;
}

std::optional<std::string> ValidateTraits(const Traits& traits) {
  for (const auto& [key, value] : traits) {
    if (key.empty() || key.size() > kMaxTraitKeyBytes) {
      return "trait key must be 1 to " + std::to_string(kMaxTraitKeyBytes) + " bytes";
    }
    if (!IsStorableText(key)) return "trait key is not valid UTF-8 or contains NUL";
    if (const auto* s = std::get_if<std::string>(&value)) {
      if (s->size() > kMaxTraitValueBytes) return "trait '" + key + "' is too long";
      if (!IsStorableText(*s)) {
        return "trait '" + key + "' is not valid UTF-8 or contains NUL";
      }
    } else if (const auto* d = std::get_if<double>(&value)) {
      if (!std::isfinite(*d)) return "trait '" + key + "' is not a finite number";
    }
  }
  return std::nullopt;
}

namespace {

std::string NumberText(double d) {
  char buf[64];
  // Shortest text that reads back as the same double.
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, end);
}

}  // namespace

EncodedTrait EncodeTrait(const TraitValue& value) {
  if (const auto* s = std::get_if<std::string>(&value)) return {"string", *s};
  if (const auto* d = std::get_if<double>(&value)) return {"number", NumberText(*d)};
  return {"boolean", std::get<bool>(value) ? "true" : "false"};
}

TraitValue DecodeTrait(const std::string& jsonb_type, const std::string& text) {
  if (jsonb_type == "number") return std::strtod(text.c_str(), nullptr);
  if (jsonb_type == "boolean") return text == "true";
  // Strings, and anything another writer stored (objects, arrays, null), as
  // their text: traits are flat by contract.
  return text;
}

}  // namespace idres::detail
