#include "normalize/date.h"

#include <catch2/catch.hpp>

#include <string>

namespace {

using idres::DateOptions;
using idres::DateOrder;
using idres::NormalizeDate;
using namespace std::chrono;

// A fixed today, so that two-digit years and the future do not move.
DateOptions On(year_month_day today, DateOrder order = DateOrder::kFromRegion) {
  return DateOptions{order, "US", today};
}
const year_month_day kToday{year{2026}, month{12}, day{1}};

struct Case {
  const char* input;
  const char* region;
  const char* expected;
};

void Accepts(const Case& c, const DateOptions& options = On(kToday)) {
  const auto result = NormalizeDate(c.input, c.region, options);
  INFO(c.input << " in '" << c.region << "': " << result.reason);
  REQUIRE(result.ok());
  CHECK(result.value == c.expected);
  // The output is canonical: it gives itself back.
  CHECK(NormalizeDate(result.value, c.region, options).value == result.value);
}

}  // namespace

TEST_CASE("date golden table: ISO and compact", "[normalize][date]") {
  const Case golden[] = {
      {"2023-02-28", "", "2023-02-28"},
      {"20230228", "", "2023-02-28"},
      {" 1990-07-04 ", "", "1990-07-04"},
      {"2024-02-29", "", "2024-02-29"},
      {"2000-02-29", "", "2000-02-29"},
      {"0001-01-01", "", "0001-01-01"},
      {"1990/7/4", "", "1990-07-04"},
      {"2023-2-28", "", "2023-02-28"},
      {"\uFF12\uFF10\uFF12\uFF13\uFF0D\uFF10\uFF12\uFF0D\uFF12\uFF18", "", "2023-02-28"},
      {"٢٠٢٣٠٢٢٨", "", "2023-02-28"},  // Arabic-Indic
  };
  for (const Case& c : golden) Accepts(c);
}

TEST_CASE("date golden table: the forms people write", "[normalize][date]") {
  const Case golden[] = {
      // Month first in the US (the default region here), day first in DE.
      {"12/11/1978", "", "1978-12-11"},
      {"12/11/1978", "US", "1978-12-11"},
      {"12/11/1978", "DE", "1978-11-12"},
      {"11/12/1978", "GB", "1978-12-11"},
      // A number over 12 is the day, whatever the region.
      {"24/05/1970", "US", "1970-05-24"},
      {"05/24/1970", "DE", "1970-05-24"},
      // Dots: day first.
      {"1.3.1970", "US", "1970-03-01"},
      {"24.05.1970", "", "1970-05-24"},
      // Month names.
      {"Mar 1 1970", "", "1970-03-01"},
      {"March 1, 1970", "DE", "1970-03-01"},
      {"1 Mar 1970", "", "1970-03-01"},
      {"24-May-11", "", "2011-05-24"},
      {"24-may-1911", "", "1911-05-24"},
      {"sept 9 1999", "", "1999-09-09"},
      // Two-digit years: never in the future.
      {"3/4/26", "US", "2026-03-04"},
      {"12/24/26", "US", "1926-12-24"},
      {"1/1/99", "US", "1999-01-01"},
      {"1/1/00", "US", "2000-01-01"},
      // Known no better than the year or the month: the year, as 1 January
      // (what the matcher reads as a year alone).
      {"1950", "", "1950-01-01"},
      {"circa 1950", "", "1950-01-01"},
      {"c. 1950", "", "1950-01-01"},
      {"Mar 1950", "", "1950-01-01"},
      {"1950-03", "", "1950-01-01"},
      {"03/1950", "", "1950-01-01"},
      // A part written as zero is not known: the year.
      {"1950-00-00", "", "1950-01-01"},
      {"1950-03-00", "", "1950-01-01"},
      {"00/00/1950", "GB", "1950-01-01"},
      {"00.03.1950", "", "1950-01-01"},
      {"19500000", "", "1950-01-01"},
      {"00/00/80", "US", "1980-01-01"},
      // Ordinals and "of" in words.
      {"6th May 1980", "", "1980-05-06"},
      {"May 6th, 1980", "", "1980-05-06"},
      {"1st of May 1980", "", "1980-05-01"},
      {"22nd March 1923", "", "1923-03-22"},
  };
  for (const Case& c : golden) Accepts(c);
}

TEST_CASE("date order can be configured", "[normalize][date]") {
  Accepts({"12/11/1978", "US", "1978-11-12"}, On(kToday, DateOrder::kDayFirst));
  Accepts({"12/11/1978", "DE", "1978-12-11"}, On(kToday, DateOrder::kMonthFirst));
}

TEST_CASE("date rejections", "[normalize][date]") {
  const std::string form =
      "not a date (forms: YYYY-MM-DD, D.M.YYYY, M/D/YYYY or D/M/YYYY, 'Mar 1 1970', a year "
      "alone)";
  const std::string no_day = "the date does not exist (no such day in that month)";
  const std::pair<const char*, std::string> rejected[] = {
      {"2023-02-30", no_day},
      {"2023-02-29", no_day},
      {"1900-02-29", no_day},
      {"2023-04-31", no_day},
      {"2023-01-32", no_day},
      {"1950-00-45", no_day},
      {"31/04/1990", no_day},
      {"Feb 30 1990", no_day},
      {"2023-13-01", "the date's month is not 01-12"},
      {"2023-13-00", "the date's month is not 01-12"},
      {"0000-00-00", form},
      {"00/00/00", form},
      {"00.00.00", form},
      {"13/13/1990", "the date's month is not 01-12"},
      {"0000-01-01", "the date's year 0000 does not exist"},
      {"2030-01-01", "the birth date is in the future"},
      {"9999-12-31", "the birth date is in the future"},
      {"19900704T00", form},
      {"2023-02-2x", form},
      {"Foo 1 1990", form},
      {"1990 1991", form},
      {"about", form},
      {"13/1990", form},
      {"circa 199", form},
      {"0042", form},
      {"1/2/3/1990", form},
      {"1/2/190", form},
      {"1990-07-04 12:00", form},
      {"", form},
  };
  for (const auto& [input, reason] : rejected) {
    const auto result = NormalizeDate(input, "", On(kToday));
    INFO(input);
    CHECK_FALSE(result.ok());
    CHECK(result.reason == reason);
  }
}
