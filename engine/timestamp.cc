#include "engine/timestamp.h"

#include <cstdio>

namespace idres {

std::string FormatRfc3339(Timestamp t) {
  using namespace std::chrono;
  const auto day = floor<days>(t);
  const year_month_day date(day);
  const hh_mm_ss<microseconds> time(t - day);
  char out[40];
  std::snprintf(out, sizeof out, "%04d-%02u-%02uT%02d:%02d:%02d.%06lldZ",
                static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                static_cast<unsigned>(date.day()), static_cast<int>(time.hours().count()),
                static_cast<int>(time.minutes().count()), static_cast<int>(time.seconds().count()),
                static_cast<long long>(time.subseconds().count()));
  return out;
}

}  // namespace idres
