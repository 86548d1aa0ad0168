// What `idres train` tells a person: the fitted numbers as a table (per
// comparison and level: m, u, the weight, the starting weight and the
// pairs behind them; which levels kept their starting numbers), how each
// EM run converged, and the same per level as notes for the model file.
// Pure; thread-safe.
#pragma once

#include <string>

#include "matcher/model_file.h"
#include "train/training.h"
#include "train/weights_chart.h"

namespace idres::train {

// The summary, the runs and the levels, as printed.
std::string TrainingTable(const Training& training);

// Per level, for ModelToToml: the starting weight, the pairs, and whether
// the starting numbers were kept.
LevelNotes TrainingNotes(const Training& training);

// The lines that open the trained model file (TOML comments): what it was
// fitted from.
std::string TrainingPreamble(const Training& training, const std::string& source,
                             std::uint64_t seed);

// The comparisons the records hold, for MatchWeightsSvg.
std::vector<ChartComparison> ChartOf(const Training& training);

}  // namespace idres::train
