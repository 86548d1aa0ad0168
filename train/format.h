// Format: printf-style text, for the tables and the chart training
// writes; numbers always in the C locale's form, so the same training
// prints the same bytes. Lines stay short: at most 511 bytes each call.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <string>

namespace idres::train {

[[gnu::format(printf, 1, 2)]] inline std::string Format(const char* format, ...) {
  char buf[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return buf;
}

}  // namespace idres::train
