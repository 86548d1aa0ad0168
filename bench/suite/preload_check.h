// PreloadShapeProblem: proof that the SQL preload wrote what the engine would
// have written: person 1's values are already normalized, its match key is
// the one the lock planner computes, and the workload addresses it by the
// same email and phone. A preload the engine cannot find would make every
// figure measured on it meaningless.
// Pure function of the database's contents; thread-safe.
#pragma once

#include <optional>
#include <string>

#include "bench/suite/cluster.h"

namespace idres::bench {

// Why the preload in `dbname` does not look like the engine's writes, or
// nullopt when it does.
std::optional<std::string> PreloadShapeProblem(const Cluster& cluster, const std::string& dbname);

}  // namespace idres::bench
