// The matching model's option, shared by every command that decides
// through the engine. `idres import` (direct) and `idres reconcile` must
// match — and so lock — exactly as the running service does, or a record
// that the service would merge becomes a second person in a batch run: give
// them the same --model file.
#pragma once

#include <string>

#include "matcher/model.h"

namespace CLI {
class App;
}

namespace idres::app {

struct MatchFlags {
  std::string model_file;  // empty: the built-in model
};

// Registers --model FILE, with IDRES_MODEL, as `idres serve` has it.
void AddMatchFlags(CLI::App& cmd, MatchFlags& flags);

// The built-in model, or the one the file makes of it. Throws
// std::runtime_error saying what is wrong with the file.
Model BuildModel(const MatchFlags& flags);

}  // namespace idres::app
