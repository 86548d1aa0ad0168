// The terminal form of an explanation (`idres explain`, docs/matching.md,
// "Explanations and possible matches"): the record's values, its keys, and
// per candidate one line per comparison with its level, weight, term
// frequency and the running total, against the threshold; then the
// decision. Pure; thread-safe.
#pragma once

#include <string>

#include "engine/explanation.h"

namespace idres::app {

std::string ExplanationTable(const Explanation& explanation);

}  // namespace idres::app
