#include "matcher/detail/date_compare.h"

#include <array>
#include <chrono>
#include <cstdlib>
#include <string>

#include "matcher/edit_distance.h"

namespace idres::matcher_detail {
namespace {

// YYYY-MM-DD as its three numbers; false when it is not that shape.
bool DateParts(std::string_view d, std::array<int, 3>& out) {
  if (d.size() != 10 || d[4] != '-' || d[7] != '-') return false;
  out = {std::atoi(std::string(d.substr(0, 4)).c_str()),
         std::atoi(std::string(d.substr(5, 2)).c_str()),
         std::atoi(std::string(d.substr(8, 2)).c_str())};
  return true;
}

// Whether two numbers are one apart or differ in one digit (as written).
bool Near(int a, int b, std::string_view ta, std::string_view tb) {
  if (std::abs(a - b) == 1) return true;
  std::size_t diff = 0;
  for (std::size_t i = 0; i < ta.size() && i < tb.size(); ++i) diff += ta[i] != tb[i];
  return ta.size() == tb.size() && diff == 1;
}

// The days between two dates (each year, month, day).
int DaysApart(const std::array<int, 3>& x, const std::array<int, 3>& y) {
  using namespace std::chrono;
  const auto day = [](const std::array<int, 3>& d) {
    return sys_days(year_month_day(year(d[0]), month(static_cast<unsigned>(d[1])),
                                   std::chrono::day(static_cast<unsigned>(d[2]))));
  };
  return std::abs((day(x) - day(y)).count());
}

}  // namespace

bool IsPlaceholderDate(std::string_view date) { return date == "1900-01-01"; }

const std::vector<std::string>& DateLevelNames() {
  static const std::vector<std::string> kNames = {
      "exact",        "day_month_swapped", "one_off",   "two_off",   "same_year",
      "year_one_off", "weeks_apart",       "different", "generation"};
  return kNames;
}

std::size_t CompareDates(std::string_view a, std::string_view b) {
  std::array<int, 3> x{}, y{};
  if (!DateParts(a, x) || !DateParts(b, y)) return a == b ? kDateExact : kDateDifferent;
  // A source that knew only the year writes 1 January: then the year is
  // all the two dates can agree on. A year one off is no typo to forgive
  // but a year estimated (from an age, a register): as often one person's
  // as two people's, it weighs a little against, as a date a few weeks
  // off does.
  const bool year_only = (x[1] == 1 && x[2] == 1) || (y[1] == 1 && y[2] == 1);
  // Another generation: fifteen years or more apart, not by a slip of one
  // digit of the year. (Two digits swapped, 1947 / 1974, is as often a
  // father and his son: a full date's transposition is one_off below.)
  const bool generation =
      std::abs(x[0] - y[0]) >= 15 && !Near(x[0], y[0], a.substr(0, 4), b.substr(0, 4));
  if (year_only) {
    if (x[0] == y[0]) return kDateSameYear;
    if (std::abs(x[0] - y[0]) == 1) return kDateYearOneOff;
    return generation ? kDateGeneration : kDateDifferent;
  }
  if (a == b) return kDateExact;
  if (x[0] == y[0] && x[1] == y[2] && x[2] == y[1]) return kDateSwapped;
  static constexpr std::array<std::size_t, 3> kAt = {0, 5, 8}, kLen = {4, 2, 2};
  int differing = 0, near = 0;
  for (std::size_t j = 0; j < 3; ++j) {
    if (x[j] == y[j]) continue;
    ++differing;
    near += Near(x[j], y[j], a.substr(kAt[j], kLen[j]), b.substr(kAt[j], kLen[j]));
  }
  if (differing == 1 && near == 1) return kDateOneOff;
  // Two adjacent digits transposed (1978-04-21 / 1978-04-12).
  if (BoundedDamerauLevenshtein(a, b, 2) <= 1) return kDateOneOff;
  if (differing == 2 && near == 2) return kDateTwoOff;
  // A date a few weeks from the other (1998-12-15 / 1999-01-14) is as
  // often one person's slip as two people's dates: it weighs against a
  // match, but less than a date that is simply another.
  if (DaysApart(x, y) <= 31) return kDateWeeksApart;
  // Another generation: a father and his son at one address.
  if (generation) return kDateGeneration;
  // Anything else further apart is another person's date, or a bad one:
  // never evidence for a match.
  return kDateDifferent;
}

}  // namespace idres::matcher_detail
