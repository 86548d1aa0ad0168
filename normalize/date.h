// Date normalizer kind (used for birth_date): an ISO 8601 calendar date,
// YYYY-MM-DD, from the forms people write.
//
// Accepted, after trimming and NFKC (decimal digits of any script count,
// e.g. full-width or Arabic-Indic):
//   - YYYY-MM-DD, YYYYMMDD, and YYYY/M/D or YYYY.M.D (year first);
//   - D.M.YYYY (dots: day first, as in Germany);
//   - M/D/YYYY or D/M/YYYY (also with '-' or spaces): when one of the first
//     two numbers is over 12 it is the day; otherwise the order is the
//     configured one, by default derived from the region (month first in the
//     United States and its territories and the Philippines, day first
//     elsewhere);
//   - a month name or its abbreviation in English: "Mar 1 1970",
//     "March 1, 1970", "1 Mar 1970", "24-May-11".
// Two-digit years take the century that puts the date in the past: a birth
// date is never in the future, and one that is (beyond a day of time-zone
// slack) is rejected. Dates that do not exist ("2023-02-30", month 13, year
// 0000) are rejected with the reason. The output is in the first form, so
// normalizing it again gives it back. Pure function; thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "normalize/kind_result.h"

namespace idres {

// Whether D/M/Y or M/D/Y is read when nothing else tells.
enum class DateOrder { kFromRegion, kMonthFirst, kDayFirst };

struct DateOptions {
  DateOrder order = DateOrder::kFromRegion;
  // The region for kFromRegion when the record names none.
  std::string default_region = "US";
  // Today, for two-digit years and dates in the future; unset: the system
  // clock's date (UTC).
  std::optional<std::chrono::year_month_day> today;
};

// The ISO date for `input` (valid UTF-8), or why it is not a date. `region`
// (ISO 3166-1, e.g. "US") overrides options.default_region.
KindResult NormalizeDate(std::string_view input, std::string_view region = {},
                         const DateOptions& options = {});

}  // namespace idres
