#include "normalize/detail/utf8.h"

#include <cstdint>
#include <cstring>

namespace idres::normalize_detail {
namespace {

unsigned char Byte(std::string_view s, std::size_t i) { return static_cast<unsigned char>(s[i]); }

bool IsContinuation(unsigned char b) { return (b & 0xc0) == 0x80; }

// Length of the well-formed sequence starting at s[i], or 0 when it is not
// well formed. The second byte's range excludes overlong forms, surrogates and
// code points above U+10FFFF (Unicode Table 3-7).
std::size_t SequenceLength(std::string_view s, std::size_t i) {
  const unsigned char b0 = Byte(s, i);
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xbf;
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    len = 2;
  } else if (b0 >= 0xe0 && b0 <= 0xef) {
    len = 3;
    if (b0 == 0xe0) lo = 0xa0;
    if (b0 == 0xed) hi = 0x9f;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    len = 4;
    if (b0 == 0xf0) lo = 0x90;
    if (b0 == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  const unsigned char b1 = Byte(s, i + 1);
  if (b1 < lo || b1 > hi) return 0;
  for (std::size_t k = 2; k < len; ++k) {
    if (!IsContinuation(Byte(s, i + k))) return 0;
  }
  return len;
}

char32_t Next(std::string_view s, std::size_t& i) {
  const unsigned char b0 = Byte(s, i);
  if (b0 < 0x80) return s[i++] & 0x7f;
  const std::size_t len = b0 >= 0xf0 ? 4 : b0 >= 0xe0 ? 3 : 2;
  char32_t c = b0 & (0x7f >> len);
  for (std::size_t k = 1; k < len; ++k) c = (c << 6) | (Byte(s, i + k) & 0x3f);
  i += len;
  return c;
}

// Start of the code point that ends at s[end-1] in valid UTF-8.
std::size_t PreviousStart(std::string_view s, std::size_t end) {
  std::size_t i = end - 1;
  while (i > 0 && IsContinuation(Byte(s, i))) --i;
  return i;
}

}  // namespace

char32_t NextCodePoint(std::string_view s, std::size_t& i) { return Next(s, i); }

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

std::size_t InvalidUtf8At(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    if (Byte(s, i) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t len = SequenceLength(s, i);
    if (len == 0) return i;
    i += len;
  }
  return std::string_view::npos;
}

bool HasControl(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (IsControl(Next(s, i))) return true;
  }
  return false;
}

std::size_t NonSpaceControlAt(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    const char32_t c = Next(s, i);
    if (IsControl(c) && !IsUnicodeSpace(c)) return start;
  }
  return std::string_view::npos;
}

bool HasSpaceOrControl(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const char32_t c = Next(s, i);
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
    if (!IsUnicodeSpace(Next(s, next))) break;
    begin = next;
  }
  std::size_t end = s.size();
  while (end > begin) {
    const std::size_t start = PreviousStart(s, end);
    std::size_t probe = start;
    if (!IsUnicodeSpace(Next(s, probe))) break;
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
    if (IsUnicodeSpace(Next(s, i))) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.append(s.substr(start, i - start));
  }
  return out;
}

}  // namespace idres::normalize_detail
