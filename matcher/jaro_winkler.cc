#include "matcher/jaro_winkler.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace idres {
namespace {

constexpr double kPrefixScale = 0.1;
constexpr std::size_t kMaxPrefix = 4;

// Marks in `matched_a`/`matched_b` the bytes that match within the window;
// returns how many do.
std::size_t MarkMatches(std::string_view a, std::string_view b, std::vector<bool>& matched_a,
                        std::vector<bool>& matched_b) {
  const std::size_t longer = std::max(a.size(), b.size());
  const std::size_t window = longer / 2 > 0 ? longer / 2 - 1 : 0;
  std::size_t matches = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::size_t from = i > window ? i - window : 0;
    const std::size_t to = std::min(i + window + 1, b.size());
    for (std::size_t j = from; j < to; ++j) {
      if (matched_b[j] || a[i] != b[j]) continue;
      matched_a[i] = matched_b[j] = true;
      ++matches;
      break;
    }
  }
  return matches;
}

// Half the number of matched bytes that are not in the same order.
std::size_t Transpositions(std::string_view a, std::string_view b,
                           const std::vector<bool>& matched_a, const std::vector<bool>& matched_b) {
  std::size_t out_of_order = 0;
  std::size_t j = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!matched_a[i]) continue;
    while (!matched_b[j]) ++j;
    if (a[i] != b[j]) ++out_of_order;
    ++j;
  }
  return out_of_order / 2;
}

}  // namespace

double Jaro(std::string_view a, std::string_view b) {
  if (a == b) return 1.0;
  if (a.empty() || b.empty()) return 0.0;
  std::vector<bool> matched_a(a.size()), matched_b(b.size());
  const std::size_t m = MarkMatches(a, b, matched_a, matched_b);
  if (m == 0) return 0.0;
  const double t = static_cast<double>(Transpositions(a, b, matched_a, matched_b));
  const double md = static_cast<double>(m);
  return (md / static_cast<double>(a.size()) + md / static_cast<double>(b.size()) + (md - t) / md) /
         3.0;
}

double JaroWinkler(std::string_view a, std::string_view b) {
  const double jaro = Jaro(a, b);
  const std::size_t limit = std::min({a.size(), b.size(), kMaxPrefix});
  std::size_t prefix = 0;
  while (prefix < limit && a[prefix] == b[prefix]) ++prefix;
  return jaro + static_cast<double>(prefix) * kPrefixScale * (1.0 - jaro);
}

}  // namespace idres
