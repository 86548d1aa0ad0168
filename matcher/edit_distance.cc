#include "matcher/edit_distance.h"

#include <algorithm>
#include <vector>

namespace idres {
namespace {

// Row `i` of the alignment table from rows i-1 and i-2; returns its minimum.
std::size_t NextRow(std::string_view a, std::string_view b, std::size_t i,
                    const std::vector<std::size_t>& before, const std::vector<std::size_t>& prev,
                    std::vector<std::size_t>& row) {
  row[0] = i;
  std::size_t lowest = i;
  for (std::size_t j = 1; j <= b.size(); ++j) {
    const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
    row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
    if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
      row[j] = std::min(row[j], before[j - 2] + 1);
    }
    lowest = std::min(lowest, row[j]);
  }
  return lowest;
}

}  // namespace

std::size_t BoundedDamerauLevenshtein(std::string_view a, std::string_view b, std::size_t bound) {
  const std::size_t over = bound + 1;
  const std::size_t gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (gap > bound) return over;
  std::vector<std::size_t> before(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    // Every cell is at least its diagonal predecessor (a transposition costs
    // what the substitution before it would), so row minima never fall.
    if (NextRow(a, b, i, before, prev, row) > bound) return over;
    std::swap(before, prev);
    std::swap(prev, row);
  }
  return std::min(prev[b.size()], over);
}

bool WithinOneEdit(std::string_view a, std::string_view b) {
  return BoundedDamerauLevenshtein(a, b, 1) <= 1;
}

}  // namespace idres
