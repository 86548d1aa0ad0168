// Expectation–maximisation of the m probabilities over one blocking rule's
// candidate pairs, with u fixed (docs/matching.md, "Training a model"). The pairs
// come as PatternCounts; a type the rule blocks on takes no part (its
// agreement was chosen by the blocking, not observed), so only the other
// types' m are estimated.
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "train/pattern_counts.h"

namespace idres::train {

// Per type, per level.
using LevelTable = std::vector<std::vector<double>>;

struct EmStart {
  std::vector<bool> active;  // per type: estimated by this run
  LevelTable m;              // starting m (every type)
  // Start instead from the pairs' own agreement: each pattern first counted
  // as a match by the share of its compared types at their first level,
  // so that no starting model's guess decides which optimum EM finds.
  bool from_agreement = false;
  LevelTable u;         // fixed u (every type); each > 0
  double lambda = 0.1;  // starting share of matches among the pairs
  int max_iterations = 100;
  double tolerance = 1e-4;  // converged once no m and no lambda moves more
};

struct EmResult {
  LevelTable m;            // the estimate, for the active types
  LevelTable match_pairs;  // expected matching pairs per level (active types)
  double lambda = 0;       // share of matches among the pairs
  int iterations = 0;
  double last_change = 0;  // the largest change of the last iteration
  bool converged = false;
};

EmResult RunEm(const std::vector<PatternCount>& patterns, const EmStart& start);

// The probability that a pair of `pattern` is a match, under `m`, `u` and
// `lambda`, the active types taken as independent evidence (Fellegi–Sunter).
double MatchPosterior(const PatternCount& pattern, const std::vector<bool>& active,
                      const LevelTable& m, const LevelTable& u, double lambda);

}  // namespace idres::train
