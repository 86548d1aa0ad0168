// Times inside the engine: a point in UTC at PostgreSQL's precision
// (microseconds), read from the store as a number and formatted as
// RFC 3339 only where it leaves the engine (a codec, a printed line).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace idres {

using Timestamp = std::chrono::sys_time<std::chrono::microseconds>;

// The time `micros` microseconds after 1970-01-01T00:00:00Z.
inline Timestamp FromMicros(std::int64_t micros) {
  return Timestamp(std::chrono::microseconds(micros));
}

// "2026-01-02T03:04:05.123456Z": UTC, always six fractional digits.
std::string FormatRfc3339(Timestamp t);

}  // namespace idres
