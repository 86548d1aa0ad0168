// PairLevels: the level each comparison reaches between two records of a
// RecordTable — per type both hold, the best level over the pairs of their
// values, as the matcher takes it (matcher/comparisons.h decides the
// level of two values). A pair's levels, one byte per type, are its
// comparison pattern: what training counts.
// Thread-safety: immutable after construction; Levels may be called from
// any number of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "matcher/model.h"
#include "train/record_table.h"

namespace idres::train {

// The pattern entry of a type that one of the two records lacks, or whose
// values are evidence neither way (kNoEvidence, matcher/comparisons.h).
inline constexpr std::uint8_t kNotCompared = 0xff;

class PairLevels {
 public:
  PairLevels(const RecordTable& table, const Model& model);

  // Writes the pattern of records `a` and `b` to `levels` (one entry per
  // type of the table).
  void Levels(std::size_t a, std::size_t b, std::span<std::uint8_t> levels) const;

  std::size_t types() const { return kinds_.size(); }

 private:
  std::uint8_t Compare(std::uint16_t type, std::uint32_t x, std::uint32_t y) const;
  // A CompareValues level as a pattern entry.
  static std::uint8_t Level(std::size_t level);

  const RecordTable& table_;
  std::vector<ComparisonKind> kinds_;
  // The level each value reaches against itself: not always the first (a
  // single name, a year-only date), and asked for often, by the pairs
  // blocking brings together.
  std::vector<std::uint8_t> self_;
};

}  // namespace idres::train
