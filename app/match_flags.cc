#include "app/match_flags.h"

#include <CLI/CLI.hpp>

#include <stdexcept>

namespace idres::app {

void AddMatchFlags(CLI::App& cmd, MatchFlags& flags) {
  cmd.add_option("--weight", flags.weights, "TYPE=WEIGHT, repeatable: a type's match weight")
      ->envname("IDRES_WEIGHT")
      ->delimiter(',');
  cmd.add_option("--threshold", flags.threshold,
                 "score a person must reach to match (0: default 1.0)")
      ->envname("IDRES_THRESHOLD")
      ->capture_default_str();
}

MatchConfig BuildMatchConfig(const MatchFlags& flags) {
  MatchConfig match = MatchConfig::Defaults();
  for (const auto& entry : flags.weights) {
    const auto eq = entry.find('=');
    if (eq == std::string::npos) throw std::runtime_error("--weight wants TYPE=WEIGHT: " + entry);
    const std::string type = entry.substr(0, eq);
    auto it = match.types.find(type);
    if (it == match.types.end()) throw std::runtime_error("--weight: unknown type " + type);
    try {
      it->second.weight = std::stod(entry.substr(eq + 1));
    } catch (const std::exception&) {
      throw std::runtime_error("--weight: not a number: " + entry);
    }
  }
  if (flags.threshold > 0) match.threshold = flags.threshold;
  return match;
}

}  // namespace idres::app
