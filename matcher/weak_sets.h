// Weak type sets: which combinations of weak identifier types can reach the
// match threshold together.
//
// A type is strong when its weight alone reaches the threshold, weak
// otherwise. Any set of types whose weights reach the threshold contains
// either one strong type or a minimal set of weak types (no proper subset
// reaches it), so locking each strong value and each minimal weak
// combination covers every way two records can match. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "matcher/match_config.h"

namespace idres {

// Tolerance for comparing sums of double weights with the threshold, so that
// 0.4 + 0.3 + 0.3 counts as reaching 1.0.
inline constexpr double kWeightEpsilon = 1e-9;

// Whether `score` reaches `threshold` (with kWeightEpsilon).
bool ReachesThreshold(double score, double threshold);

// Whether `type` is strong under `config` (weight alone reaches threshold).
bool IsStrong(const MatchConfig& config, std::string_view type);

// Every minimal set of weak types whose weights reach the threshold, each set
// sorted by type name, the list sorted. Considers at most the 20 weak types
// with a positive weight (more is a configuration error the caller reports).
std::vector<std::vector<std::string>> MinimalWeakSets(const MatchConfig& config);

}  // namespace idres
