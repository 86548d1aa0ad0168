// PatternCounts: comparison patterns (one level per type, PairLevels) with
// how many pairs showed each. Training keeps these instead of the pairs:
// a million pairs show a few thousand patterns, so memory stays small and
// an EM iteration is quick.
// Thread-safety: one writer; readers once writing is over.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace idres::train {

struct PatternCount {
  std::vector<std::uint8_t> levels;  // per type; kNotCompared where not compared
  std::uint64_t pairs = 0;
};

class PatternCounts {
 public:
  void Add(std::span<const std::uint8_t> levels, std::uint64_t pairs = 1);
  void Merge(const PatternCounts& other);

  // Every pattern, in the order of their levels: the same counts give the
  // same list, whatever order the pairs came in.
  std::vector<PatternCount> Sorted() const;

  std::uint64_t pairs() const { return pairs_; }
  std::size_t size() const { return counts_.size(); }

 private:
  std::unordered_map<std::string, std::uint64_t> counts_;
  std::uint64_t pairs_ = 0;
};

}  // namespace idres::train
