// The match-weights chart of a fitted model, as SVG (the chart Splink's
// users know): per comparison and level a horizontal bar of its weight,
// log2(m/u), evidence against to the left of zero and for to the right;
// the starting weight marked on each bar's row; levels that kept their
// starting numbers drawn grey; the prior's log-odds on top. Written by
// hand: no dependency. The same training draws the same bytes.
// Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

namespace idres::train {

struct ChartLevel {
  std::string name;
  double weight = 0;
  double start_weight = 0;  // NaN: none to mark
  bool kept = false;        // starting numbers kept: the data never reached it
};

struct ChartComparison {
  std::string type;
  std::vector<ChartLevel> levels;
};

// `prior_log_odds` empty (NaN): no prior bar. `title` heads the chart.
std::string MatchWeightsSvg(const std::vector<ChartComparison>& comparisons, double prior_log_odds,
                            const std::string& title);

}  // namespace idres::train
