// Per type and level, how many pairs reached it (each pair weighed), and
// per type how many pairs compared it: what m and u are shares of. Also
// the numbers a model holds, in the same shape.
// Pure; thread-safe.
#pragma once

#include <functional>
#include <vector>

#include "matcher/model.h"
#include "train/em.h"
#include "train/pattern_counts.h"
#include "train/record_table.h"

namespace idres::train {

struct Tally {
  LevelTable at;                 // per type, per level
  std::vector<double> compared;  // per type
};

// The patterns counted, each pair weighed by `weight(pattern)`; `shape`
// gives the number of levels per type.
Tally Count(const std::vector<PatternCount>& patterns, const LevelTable& shape,
            const std::function<double(const PatternCount&)>& weight);

// Every pair counted once.
Tally Count(const std::vector<PatternCount>& patterns, const LevelTable& shape);

// Per level its share of `tally`, or `start`'s number where no pair of
// `seen` reached it. A level reached only by pairs the tally weighs as
// nothing counts as half a pair: rare, never impossible.
LevelTable Shares(const Tally& tally, const Tally& seen, const LevelTable& start);

// The m (or u) of `model`'s levels, per type of `table`.
LevelTable ModelNumbers(const Model& model, const RecordTable& table, bool m);

}  // namespace idres::train
