#include "normalize/date.h"

#include <unicode/uchar.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "normalize/detail/icu.h"
#include "normalize/detail/utf8.h"

namespace idres {
namespace {

namespace nd = normalize_detail;

bool AllDigits(std::string_view s) {
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return !s.empty();
}

int Number(std::string_view digits) {
  int n = 0;
  for (char c : digits) n = n * 10 + (c - '0');
  return n;
}

// `s` (valid UTF-8) with every decimal digit of any script (Arabic-Indic,
// Devanagari, ...) replaced by its ASCII digit.
std::string AsciiDigits(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    const char32_t c = nd::NextCodePoint(s, i);
    const int32_t digit = c >= 0x80 ? u_charDigitValue(static_cast<UChar32>(c)) : -1;
    if (digit >= 0) {
      out.push_back(static_cast<char>('0' + digit));
    } else {
      out.append(s.substr(start, i - start));
    }
  }
  return out;
}

// "YYYYMMDD" from either accepted spelling, or empty.
std::string CompactDigits(std::string_view s) {
  if (s.size() == 10 && s[4] == '-' && s[7] == '-') {
    std::string digits =
        std::string(s.substr(0, 4)) + std::string(s.substr(5, 2)) + std::string(s.substr(8, 2));
    return AllDigits(digits) ? digits : std::string();
  }
  return s.size() == 8 && AllDigits(s) ? std::string(s) : std::string();
}

}  // namespace

KindResult NormalizeDate(std::string_view input) {
  const std::string_view trimmed = nd::TrimSpace(input);
  const std::string text =
      nd::IsAscii(trimmed) ? std::string(trimmed) : AsciiDigits(nd::Nfkc(trimmed));
  const std::string digits = CompactDigits(text);
  if (digits.empty()) return KindResult::Reject("not a date in the form YYYY-MM-DD or YYYYMMDD");
  const int year = Number(digits.substr(0, 4));
  const unsigned month = static_cast<unsigned>(Number(digits.substr(4, 2)));
  const unsigned day = static_cast<unsigned>(Number(digits.substr(6, 2)));
  if (year == 0) return KindResult::Reject("the date's year 0000 does not exist");
  if (month < 1 || month > 12) return KindResult::Reject("the date's month is not 01-12");
  const std::chrono::year_month_day date{std::chrono::year{year}, std::chrono::month{month},
                                         std::chrono::day{day}};
  if (!date.ok()) return KindResult::Reject("the date does not exist (no such day in that month)");
  char iso[11];
  std::snprintf(iso, sizeof iso, "%04d-%02u-%02u", year, month, day);
  return KindResult::Ok(iso);
}

}  // namespace idres
