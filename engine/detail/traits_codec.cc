#include "engine/detail/traits_codec.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "normalize/utf8.h"

namespace idres::detail {
namespace {

// Whether `s` is valid UTF-8 without NUL.
bool IsStorableText(const std::string& s) {
  return s.find('\0') == std::string::npos && !FindInvalidUtf8(s);
}

}  // namespace

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

EncodedTrait EncodeTrait(const TraitValue& value) {
  if (const auto* s = std::get_if<std::string>(&value)) return {"string", *s};
  if (const auto* d = std::get_if<double>(&value)) {
    char buf[64];  // the shortest text that reads back as the same double
    return {"number", std::string(buf, std::to_chars(buf, buf + sizeof buf, *d).ptr)};
  }
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
