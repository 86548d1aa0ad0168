#include "train/em.h"

#include <algorithm>
#include <cmath>

#include "train/pair_levels.h"

namespace idres::train {
namespace {

// One M step: the expected matching pairs per level, and lambda.
double Expect(const std::vector<PatternCount>& patterns, const EmStart& start, const LevelTable& m,
              double lambda, LevelTable& match_pairs) {
  for (auto& levels : match_pairs) std::fill(levels.begin(), levels.end(), 0.0);
  double matches = 0, pairs = 0;
  for (const PatternCount& p : patterns) {
    const double n = static_cast<double>(p.pairs);
    const double w = n * MatchPosterior(p, start.active, m, start.u, lambda);
    matches += w;
    pairs += n;
    for (std::size_t t = 0; t < p.levels.size(); ++t) {
      if (p.levels[t] != kNotCompared && start.active[t]) match_pairs[t][p.levels[t]] += w;
    }
  }
  return pairs > 0 ? matches / pairs : 0;
}

// The first M step's input when starting from agreement.
double AgreementMatches(const std::vector<PatternCount>& patterns, const EmStart& start,
                        LevelTable& match_pairs) {
  for (auto& levels : match_pairs) std::fill(levels.begin(), levels.end(), 0.0);
  double matches = 0, pairs = 0;
  for (const PatternCount& p : patterns) {
    double compared = 0, agreed = 0;
    for (std::size_t t = 0; t < p.levels.size(); ++t) {
      if (p.levels[t] == kNotCompared || !start.active[t]) continue;
      ++compared;
      if (p.levels[t] == 0) ++agreed;
    }
    const double w = static_cast<double>(p.pairs) * (compared > 0 ? agreed / compared : 0);
    matches += w;
    pairs += static_cast<double>(p.pairs);
    for (std::size_t t = 0; t < p.levels.size(); ++t) {
      if (p.levels[t] != kNotCompared && start.active[t]) match_pairs[t][p.levels[t]] += w;
    }
  }
  return pairs > 0 ? matches / pairs : 0;
}

// m from the expected matching pairs; the largest change of an m.
double Maximize(const EmStart& start, const LevelTable& match_pairs, LevelTable& m) {
  double change = 0;
  for (std::size_t t = 0; t < m.size(); ++t) {
    if (!start.active[t]) continue;
    double total = 0;
    for (double w : match_pairs[t]) total += w;
    if (total <= 0) continue;
    for (std::size_t l = 0; l < m[t].size(); ++l) {
      const double share = match_pairs[t][l] / total;
      change = std::max(change, std::abs(share - m[t][l]));
      m[t][l] = share;
    }
  }
  return change;
}

}  // namespace

double MatchPosterior(const PatternCount& pattern, const std::vector<bool>& active,
                      const LevelTable& m, const LevelTable& u, double lambda) {
  double match = lambda, other = 1 - lambda;
  for (std::size_t t = 0; t < pattern.levels.size(); ++t) {
    const std::uint8_t l = pattern.levels[t];
    if (l == kNotCompared || !active[t]) continue;
    match *= m[t][l];
    other *= u[t][l];
  }
  return match + other > 0 ? match / (match + other) : 0;
}

EmResult RunEm(const std::vector<PatternCount>& patterns, const EmStart& start) {
  EmResult r;
  r.m = start.m;
  r.lambda = start.lambda;
  r.match_pairs = start.m;
  if (start.from_agreement) {
    r.lambda = AgreementMatches(patterns, start, r.match_pairs);
    Maximize(start, r.match_pairs, r.m);
  }
  while (r.iterations < start.max_iterations) {
    ++r.iterations;
    const double lambda = Expect(patterns, start, r.m, r.lambda, r.match_pairs);
    const double change =
        std::max(std::abs(lambda - r.lambda), Maximize(start, r.match_pairs, r.m));
    r.lambda = lambda;
    r.last_change = change;
    if (change < start.tolerance) {
      r.converged = true;
      break;
    }
  }
  return r;
}

}  // namespace idres::train
