// The matcher's options, shared by every command that writes through the
// engine. `idres import` (direct) and `idres reconcile` must match — and so
// lock — exactly as the running service does, or a record that the service
// would merge becomes a second person in a batch run.
#pragma once

#include <string>
#include <vector>

#include "matcher/match_config.h"

namespace CLI {
class App;
}

namespace idres::app {

struct MatchFlags {
  std::vector<std::string> weights;  // TYPE=WEIGHT
  double threshold = 0;              // 0: the default
};

// Registers --weight (repeatable, comma-separated) and --threshold, with
// IDRES_WEIGHT and IDRES_THRESHOLD, as `idres serve` has them.
void AddMatchFlags(CLI::App& cmd, MatchFlags& flags);

// The defaults with `flags` applied. Throws std::runtime_error naming the
// bad entry (not TYPE=WEIGHT, an unknown type, not a number).
MatchConfig BuildMatchConfig(const MatchFlags& flags);

}  // namespace idres::app
