#include "app/time_flag.h"

namespace idres::app {
namespace {

using std::chrono::system_clock;

// Reads `count` digits at `pos` into `out`; false when they are not there.
bool Digits(std::string_view text, std::size_t& pos, int count, int& out) {
  if (pos + count > text.size()) return false;
  out = 0;
  for (int i = 0; i < count; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  pos += count;
  return true;
}

bool Expect(std::string_view text, std::size_t& pos, char c) {
  if (pos >= text.size() || text[pos] != c) return false;
  ++pos;
  return true;
}

}  // namespace

std::optional<system_clock::time_point> ParseTimeFlag(std::string_view text) {
  using namespace std::chrono;
  std::size_t pos = 0;
  int y = 0, mo = 0, d = 0;
  if (!Digits(text, pos, 4, y) || !Expect(text, pos, '-') || !Digits(text, pos, 2, mo) ||
      !Expect(text, pos, '-') || !Digits(text, pos, 2, d)) {
    return std::nullopt;
  }
  const year_month_day date{year{y}, month{static_cast<unsigned>(mo)},
                            day{static_cast<unsigned>(d)}};
  // The clock counts nanoseconds in 64 bits: 1677 to 2262.
  if (!date.ok() || y < 1970 || y > 2261) return std::nullopt;
  system_clock::time_point at = sys_days{date};
  if (pos == text.size()) return at;
  const char sep = text[pos++];
  if (sep != 'T' && sep != 't' && sep != ' ') return std::nullopt;
  int h = 0, mi = 0, s = 0;
  if (!Digits(text, pos, 2, h) || !Expect(text, pos, ':') || !Digits(text, pos, 2, mi) ||
      !Expect(text, pos, ':') || !Digits(text, pos, 2, s) || h > 23 || mi > 59 || s > 60) {
    return std::nullopt;
  }
  at += hours{h} + minutes{mi} + seconds{s};
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    long long scale = 100000;  // microseconds of the first fraction digit
    const std::size_t start = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      at += microseconds{(text[pos] - '0') * scale};
      scale /= 10;
      ++pos;
    }
    if (pos == start) return std::nullopt;
  }
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const bool ahead = text[pos++] == '+';
    int oh = 0, om = 0;
    if (!Digits(text, pos, 2, oh) || !Expect(text, pos, ':') || !Digits(text, pos, 2, om) ||
        oh > 23 || om > 59) {
      return std::nullopt;
    }
    const minutes offset = hours{oh} + minutes{om};
    at -= ahead ? offset : -offset;
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  return at;
}

}  // namespace idres::app
