#include "normalize/date.h"

#include <catch2/catch.hpp>

#include <string>

using idres::NormalizeDate;

TEST_CASE("date golden table", "[normalize][date]") {
  const std::pair<const char*, const char*> golden[] = {
      {"2023-02-28", "2023-02-28"},
      {"20230228", "2023-02-28"},
      {" 1990-07-04 ", "1990-07-04"},
      {"2024-02-29", "2024-02-29"},
      {"2000-02-29", "2000-02-29"},
      {"0001-01-01", "0001-01-01"},
      {"9999-12-31", "9999-12-31"},
      {"\uFF12\uFF10\uFF12\uFF13\uFF0D\uFF10\uFF12\uFF0D\uFF12\uFF18", "2023-02-28"},  // full-width
      {"٢٠٢٣٠٢٢٨", "2023-02-28"},  // Arabic-Indic
  };
  for (const auto& [input, expected] : golden) {
    const auto result = NormalizeDate(input);
    INFO(input << " " << result.reason);
    REQUIRE(result.ok());
    CHECK(result.value == expected);
  }
}

TEST_CASE("date rejections", "[normalize][date]") {
  const std::string form = "not a date in the form YYYY-MM-DD or YYYYMMDD";
  const std::string no_day = "the date does not exist (no such day in that month)";
  const std::pair<const char*, std::string> rejected[] = {
      {"2023-02-30", no_day},
      {"2023-02-29", no_day},
      {"1900-02-29", no_day},
      {"2023-04-31", no_day},
      {"2023-01-00", no_day},
      {"2023-13-01", "the date's month is not 01-12"},
      {"2023-00-01", "the date's month is not 01-12"},
      {"0000-01-01", "the date's year 0000 does not exist"},
      {"2023-2-28", form},
      {"1990/07/04", form},
      {"19900704T00", form},
      {"2023-02-2x", form},
      {"", form},
  };
  for (const auto& [input, reason] : rejected) {
    const auto result = NormalizeDate(input);
    INFO(input);
    CHECK_FALSE(result.ok());
    CHECK(result.reason == reason);
  }
}
