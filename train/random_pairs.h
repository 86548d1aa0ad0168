// RandomPairs: the comparison patterns of record pairs drawn at random,
// from which training takes u — how often each level occurs between two
// records of different people — as Splink does: among random pairs nearly
// all are of different people (docs/matching.md, "Training a model").
#pragma once

#include <cstddef>
#include <cstdint>

#include "train/pair_levels.h"
#include "train/pattern_counts.h"
#include "train/record_table.h"

namespace idres::train {

struct RandomPairSample {
  PatternCounts patterns;
  bool every_pair = false;  // the table has no more pairs than asked for: all of them
};

// `pairs` pairs of distinct records drawn uniformly by a generator seeded
// with `seed`, or every pair when the table has no more than that.
RandomPairSample SampleRandomPairs(const RecordTable& table, const PairLevels& levels,
                                   std::uint64_t pairs, std::uint64_t seed);

}  // namespace idres::train
