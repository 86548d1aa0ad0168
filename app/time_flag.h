// A time given on the command line: RFC 3339 ("2026-01-02T03:04:05Z",
// "...05.25+01:00", "t" and a space allowed for "T") or a date
// ("2026-01-02", midnight UTC). Pure.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace idres::app {

// The time `text` names; nullopt when it names none (bad digits, a day that
// does not exist, an hour past 23, no zone after a time, a year outside
// 1970-2261).
std::optional<std::chrono::system_clock::time_point> ParseTimeFlag(std::string_view text);

}  // namespace idres::app
