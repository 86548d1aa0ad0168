#include "normalize/detail/utf8.h"

#include <unicode/utf8.h>

#include <cstdint>
#include <cstring>

namespace idres::normalize_detail {
namespace {

unsigned char Byte(std::string_view s, std::size_t i) { return static_cast<unsigned char>(s[i]); }

// ICU's UTF-8 macros read bytes as unsigned.
const std::uint8_t* Bytes(std::string_view s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

// Start of the code point that ends at s[end-1] in valid UTF-8.
std::size_t PreviousStart(std::string_view s, std::size_t end) {
  U8_BACK_1_UNSAFE(Bytes(s), end);
  return end;
}

}  // namespace

char32_t NextCodePoint(std::string_view s, std::size_t& i) {
  UChar32 c;
  U8_NEXT_UNSAFE(Bytes(s), i, c);
  return static_cast<char32_t>(c);
}

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string AsciiUpper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

bool IsAscii(std::string_view s) {
  std::size_t i = 0;
  // Eight bytes at a time: the common case is short ASCII, but values can be long.
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, s.data() + i, 8);
    if (word & 0x8080808080808080ULL) return false;
  }
  for (; i < s.size(); ++i) {
    if (Byte(s, i) >= 0x80) return false;
  }
  return true;
}

bool IsValidUtf8(std::string_view s) { return InvalidUtf8At(s) == std::string_view::npos; }

// ICU's U8_NEXT takes a sequence as well formed exactly as Unicode Table 3-7
// does: no overlong forms, no surrogates, nothing above U+10FFFF.
std::size_t InvalidUtf8At(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    UChar32 c;
    U8_NEXT(Bytes(s), i, s.size(), c);
    if (c < 0) return start;
  }
  return std::string_view::npos;
}

bool HasControl(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (IsControl(NextCodePoint(s, i))) return true;
  }
  return false;
}

std::size_t NonSpaceControlAt(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    const char32_t c = NextCodePoint(s, i);
    if (IsControl(c) && !IsUnicodeSpace(c)) return start;
  }
  return std::string_view::npos;
}

bool HasSpaceOrControl(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const char32_t c = NextCodePoint(s, i);
    if (IsControl(c) || IsUnicodeSpace(c)) return true;
  }
  return false;
}

bool IsUnicodeSpace(char32_t c) {
  if (c <= 0x20) return c == 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0x85) return false;
  return c == 0x85 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 ||
         c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

std::string_view TrimSpace(std::string_view s) {
  std::size_t begin = 0;
  while (begin < s.size()) {
    std::size_t next = begin;
    if (!IsUnicodeSpace(NextCodePoint(s, next))) break;
    begin = next;
  }
  std::size_t end = s.size();
  while (end > begin) {
    const std::size_t start = PreviousStart(s, end);
    std::size_t probe = start;
    if (!IsUnicodeSpace(NextCodePoint(s, probe))) break;
    end = start;
  }
  return s.substr(begin, end - begin);
}

std::string CollapseSpace(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool pending_space = false;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    if (IsUnicodeSpace(NextCodePoint(s, i))) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.append(s.substr(start, i - start));
  }
  return out;
}

std::vector<std::string> Words(std::string_view s) {
  std::vector<std::string> out;
  std::string word;
  for (char c : s) {
    if (c == ' ') {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

}  // namespace idres::normalize_detail
