#include "train/level_tally.h"

#include <algorithm>

#include "train/pair_levels.h"

namespace idres::train {

Tally Count(const std::vector<PatternCount>& patterns, const LevelTable& shape,
            const std::function<double(const PatternCount&)>& weight) {
  Tally t{shape, std::vector<double>(shape.size(), 0.0)};
  for (auto& levels : t.at) std::fill(levels.begin(), levels.end(), 0.0);
  for (const PatternCount& p : patterns) {
    const double w = static_cast<double>(p.pairs) * weight(p);
    for (std::size_t type = 0; type < p.levels.size(); ++type) {
      if (p.levels[type] == kNotCompared) continue;
      t.at[type][p.levels[type]] += w;
      t.compared[type] += w;
    }
  }
  return t;
}

Tally Count(const std::vector<PatternCount>& patterns, const LevelTable& shape) {
  return Count(patterns, shape, [](const PatternCount&) { return 1.0; });
}

LevelTable Shares(const Tally& tally, const Tally& seen, const LevelTable& start) {
  LevelTable out = start;
  for (std::size_t t = 0; t < out.size(); ++t) {
    for (std::size_t l = 0; l < out[t].size(); ++l) {
      if (seen.at[t][l] > 0) out[t][l] = std::max(tally.at[t][l], 0.5) / tally.compared[t];
    }
  }
  return out;
}

LevelTable ModelNumbers(const Model& model, const RecordTable& table, bool m) {
  LevelTable out;
  for (const std::string& type : table.types()) {
    out.emplace_back();
    for (const Level& l : model.Find(type)->levels) out.back().push_back(m ? l.m : l.u);
  }
  return out;
}

}  // namespace idres::train
