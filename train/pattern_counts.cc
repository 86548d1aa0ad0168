#include "train/pattern_counts.h"

#include <algorithm>
#include <string_view>
#include <utility>

namespace idres::train {

void PatternCounts::Add(std::span<const std::uint8_t> levels, std::uint64_t pairs) {
  counts_[std::string(levels.begin(), levels.end())] += pairs;
  pairs_ += pairs;
}

void PatternCounts::Merge(const PatternCounts& other) {
  for (const auto& [key, n] : other.counts_) counts_[key] += n;
  pairs_ += other.pairs_;
}

std::vector<PatternCount> PatternCounts::Sorted() const {
  // Sorted by the keys (the levels as bytes): the same order as the levels.
  std::vector<std::pair<std::string_view, std::uint64_t>> keyed(counts_.begin(), counts_.end());
  std::sort(keyed.begin(), keyed.end());
  std::vector<PatternCount> out;
  out.reserve(keyed.size());
  for (const auto& [key, n] : keyed) {
    out.push_back({std::vector<std::uint8_t>(key.begin(), key.end()), n});
  }
  return out;
}

}  // namespace idres::train
