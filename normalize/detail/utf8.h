// UTF-8 helpers shared by the normalizer kinds: strict validation, the ASCII
// test behind the fast paths, control characters and Unicode whitespace.
// Internal to normalize/. Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>
#include <string_view>

namespace idres::normalize_detail {

// Decodes the code point at s[i] of valid UTF-8 `s` and advances i past it.
char32_t NextCodePoint(std::string_view s, std::size_t& i);

// The code points of valid UTF-8 `s` for which `keep(c)` holds, in order.
template <typename Keep>
std::string KeepCodePoints(std::string_view s, Keep keep) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    if (keep(NextCodePoint(s, i))) out.append(s.substr(start, i - start));
  }
  return out;
}

// `s` with ASCII letters lowered / raised; other bytes unchanged.
std::string AsciiLower(std::string_view s);
std::string AsciiUpper(std::string_view s);

// Whether `s` is well-formed UTF-8 (Unicode Table 3-7): no overlong forms, no
// surrogates, nothing above U+10FFFF, no truncated sequences.
bool IsValidUtf8(std::string_view s);

// Offset of the first byte that is not part of well-formed UTF-8, or npos.
std::size_t InvalidUtf8At(std::string_view s);

// Whether every byte of `s` is below 0x80.
bool IsAscii(std::string_view s);

// The words of `s`, split at spaces (runs of them count once).
std::vector<std::string> Words(std::string_view s);

// Whether code point `c` is a control character (U+0000-U+001F, U+007F-U+009F).
inline bool IsControl(char32_t c) { return c < 0x20 || (c >= 0x7f && c <= 0x9f); }

// Whether valid UTF-8 `s` contains a control character.
bool HasControl(std::string_view s);

// Offset of the first control character in valid UTF-8 `s` that is not
// whitespace (TAB, LF, VT, FF, CR and U+0085 are whitespace), or npos.
std::size_t NonSpaceControlAt(std::string_view s);

// Whether valid UTF-8 `s` contains whitespace or a control character.
bool HasSpaceOrControl(std::string_view s);

// Whether `c` has the Unicode White_Space property.
bool IsUnicodeSpace(char32_t c);

// `s` (valid UTF-8) without leading and trailing Unicode whitespace.
std::string_view TrimSpace(std::string_view s);

// Runs of Unicode whitespace in valid UTF-8 `s` replaced by one ASCII space,
// leading and trailing whitespace removed.
std::string CollapseSpace(std::string_view s);

}  // namespace idres::normalize_detail
