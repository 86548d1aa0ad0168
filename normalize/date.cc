#include "normalize/date.h"

#include <unicode/uchar.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "normalize/detail/icu.h"
#include "normalize/detail/utf8.h"

namespace idres {
namespace {

namespace nd = normalize_detail;
using namespace std::chrono;

constexpr const char* kNotADate =
    "not a date (forms: YYYY-MM-DD, D.M.YYYY, M/D/YYYY or D/M/YYYY, 'Mar 1 1970', a year "
    "alone)";

constexpr const char* kNoSuchDay = "the date does not exist (no such day in that month)";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

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

// 1-12 for an English month name or its abbreviation ("mar", "sept",
// "March"), else 0.
unsigned MonthNamed(std::string_view word) {
  static constexpr std::array<const char*, 12> kNames = {
      "january", "february", "march",     "april",   "may",      "june",
      "july",    "august",   "september", "october", "november", "december"};
  std::string lower;
  for (char c : word) lower.push_back(static_cast<char>(c | 0x20));
  if (lower.size() < 3) return 0;
  for (unsigned m = 0; m < kNames.size(); ++m) {
    if (std::string_view(kNames[m]).starts_with(lower)) return m + 1;
  }
  return 0;
}

// Regions that write the month first.
bool MonthFirstRegion(std::string_view region) {
  static constexpr std::array<std::string_view, 11> kMonthFirst = {
      "US", "PR", "GU", "VI", "AS", "MP", "UM", "PH", "FM", "MH", "PW"};
  std::string upper;
  for (char c : region) upper.push_back(static_cast<char>(c & ~0x20));
  return std::find(kMonthFirst.begin(), kMonthFirst.end(), upper) != kMonthFirst.end();
}

struct Token {
  std::string text;
  bool digits;
};

// The digit and letter runs of `s`, split at '/', '.', '-', ',' and spaces;
// `dots` says whether a '.' separated them. Empty when another character
// appears.
std::vector<Token> Tokens(std::string_view s, bool& dots) {
  std::vector<Token> out;
  dots = false;
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (IsDigit(c) || IsLetter(c)) {
      const bool digits = IsDigit(c);
      std::size_t j = i;
      while (j < s.size() && (digits ? IsDigit(s[j]) : IsLetter(s[j]))) ++j;
      out.push_back({std::string(s.substr(i, j - i)), digits});
      i = j;
    } else if (c == '/' || c == '.' || c == '-' || c == ',' || c == ' ') {
      dots = dots || c == '.';
      ++i;
    } else {
      return {};
    }
  }
  return out;
}

// Words that say a date is a guess: "circa 1950", "c. 1950", "about 1950".
bool IsApproximate(std::string_view word) {
  static constexpr std::array<std::string_view, 8> kWords = {
      "circa", "ca", "c", "approx", "approximately", "about", "abt", "around"};
  std::string lower;
  for (char c : word) lower.push_back(static_cast<char>(c | 0x20));
  return std::find(kWords.begin(), kWords.end(), lower) != kWords.end();
}

// The year of a date known no better than its year ("1950", "circa 1950")
// or its month ("Mar 1950", "1950-03", "03/1950"), or 0.
int YearAlone(std::vector<Token> t) {
  if (!t.empty() && !t[0].digits && IsApproximate(t[0].text)) t.erase(t.begin());
  // A year from 1000 on: "0042" alone is a code, not a year.
  const auto year = [](const Token& x) {
    return x.digits && x.text.size() == 4 && x.text[0] != '0';
  };
  const auto month = [](const Token& x) {
    if (!x.digits) return MonthNamed(x.text) != 0;
    return x.text.size() <= 2 && Number(x.text) >= 1 && Number(x.text) <= 12;
  };
  if (t.size() == 1 && year(t[0])) return Number(t[0].text);
  if (t.size() == 2 && year(t[0]) && month(t[1])) return Number(t[0].text);
  if (t.size() == 2 && month(t[0]) && year(t[1])) return Number(t[1].text);
  return 0;
}

// `t` without what a date says in words around its numbers: an ordinal's
// letters after a day ("6th May 1980") and "of" ("1st of May 1980").
std::vector<Token> Spoken(std::vector<Token> t) {
  std::vector<Token> out;
  for (Token& x : t) {
    std::string lower;
    for (char c : x.text) lower.push_back(static_cast<char>(c | 0x20));
    const bool ordinal = lower == "st" || lower == "nd" || lower == "rd" || lower == "th";
    if (!x.digits && ((ordinal && !out.empty() && out.back().digits) || lower == "of")) continue;
    out.push_back(std::move(x));
  }
  return out;
}

struct Parts {
  int year = 0;  // as written
  bool two_digit_year = false;
  unsigned month = 0, day = 0;
};

// Year, month and day as written, or nullopt when `text` is no date form.
std::optional<Parts> Split(std::string_view text, bool month_first) {
  if (text.size() == 8 && std::all_of(text.begin(), text.end(), IsDigit)) {
    return Parts{Number(text.substr(0, 4)), false, static_cast<unsigned>(Number(text.substr(4, 2))),
                 static_cast<unsigned>(Number(text.substr(6, 2)))};
  }
  bool dots = false;
  const std::vector<Token> t = Spoken(Tokens(text, dots));
  // A year alone, written as 1 January: the form the matcher reads as a
  // year alone (a month kept on it would read as a whole date, so a month
  // and year keep only the year).
  if (const int year = YearAlone(t); year != 0) return Parts{year, false, 1, 1};
  if (t.size() != 3) return std::nullopt;
  const auto year_of = [](const Token& y, Parts& p) {
    if (!y.digits || (y.text.size() != 4 && y.text.size() != 2)) return false;
    p.year = Number(y.text);
    p.two_digit_year = y.text.size() == 2;
    return true;
  };
  const auto small = [](const Token& x) { return x.digits && x.text.size() <= 2; };
  Parts p;
  if (!t[0].digits || !t[1].digits) {  // a month name: "Mar 1 1970" or "1 Mar 1970"
    const bool name_first = !t[0].digits;
    const Token& name = name_first ? t[0] : t[1];
    const Token& day = name_first ? t[1] : t[0];
    p.month = MonthNamed(name.text);
    if (p.month == 0 || !small(day) || !year_of(t[2], p)) return std::nullopt;
    p.day = static_cast<unsigned>(Number(day.text));
    return p;
  }
  if (!t[2].digits) return std::nullopt;
  if (t[0].text.size() == 4) {  // year first
    if (!small(t[1]) || !small(t[2])) return std::nullopt;
    return Parts{Number(t[0].text), false, static_cast<unsigned>(Number(t[1].text)),
                 static_cast<unsigned>(Number(t[2].text))};
  }
  if (!small(t[0]) || !small(t[1]) || !year_of(t[2], p)) return std::nullopt;
  const unsigned a = static_cast<unsigned>(Number(t[0].text));
  const unsigned b = static_cast<unsigned>(Number(t[1].text));
  // A number over 12 can only be the day; dots mean day first; else the
  // region's order.
  const bool md = a > 12 ? false : b > 12 ? true : (!dots && month_first);
  p.month = md ? a : b;
  p.day = md ? b : a;
  return p;
}

year_month_day Today(const DateOptions& options) {
  if (options.today) return *options.today;
  return year_month_day{floor<days>(system_clock::now())};
}

}  // namespace

KindResult NormalizeDate(std::string_view input, std::string_view region,
                         const DateOptions& options) {
  const std::string_view trimmed = nd::TrimSpace(input);
  const std::string text =
      nd::IsAscii(trimmed) ? std::string(trimmed) : AsciiDigits(nd::Nfkc(trimmed));
  const bool month_first =
      options.order == DateOrder::kFromRegion
          ? MonthFirstRegion(region.empty() ? std::string_view(options.default_region) : region)
          : options.order == DateOrder::kMonthFirst;
  const std::optional<Parts> parts = Split(text, month_first);
  if (!parts) return KindResult::Reject(kNotADate);
  if (parts->month > 12) return KindResult::Reject("the date's month is not 01-12");
  if (parts->day > 31) return KindResult::Reject(kNoSuchDay);
  // A month or day written as zero is not known ("1980-00-00", "00/05/1980",
  // as partial dates are stored): the year alone, as 1 January. All of it
  // zeros ("00/00/00") is no date.
  const bool partial = parts->month == 0 || parts->day == 0;
  if (partial && parts->year == 0 && parts->month == 0 && parts->day == 0) {
    return KindResult::Reject(kNotADate);
  }
  const unsigned month_of = partial ? 1 : parts->month, day_of = partial ? 1 : parts->day;
  const year_month_day today = Today(options);
  int year = parts->year;
  if (parts->two_digit_year) {
    // This century unless that puts the date in the future.
    const int century = static_cast<int>(today.year()) / 100 * 100;
    year += century;
    const year_month_day guess{std::chrono::year{year}, month{month_of}, day{day_of}};
    if (guess.ok() && sys_days{guess} > sys_days{today}) year -= 100;
  }
  if (year == 0) return KindResult::Reject("the date's year 0000 does not exist");
  const year_month_day date{std::chrono::year{year}, month{month_of}, day{day_of}};
  if (!date.ok()) return KindResult::Reject(kNoSuchDay);
  // A day of slack: it may already be tomorrow where the person was born.
  if (sys_days{date} > sys_days{today} + days{1}) {
    return KindResult::Reject("the birth date is in the future");
  }
  char iso[32];  // "YYYY-MM-DD"; room for what the compiler cannot rule out
  std::snprintf(iso, sizeof iso, "%04d-%02u-%02u", year, month_of, day_of);
  return KindResult::Ok(iso);
}

}  // namespace idres
