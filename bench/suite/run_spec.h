// RunSpec: what one scenario measurement of (a)-(d) runs (scenario, clients,
// duration, the preloaded template it clones), and the scratch database each
// run gets, named after it. Plain values; thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "bench/suite/context.h"
#include "bench/suite/scratch_database.h"

namespace idres::bench {

struct RunSpec {
  char scenario = 'a';
  int clients = 1;
  double seconds = 5;
  std::string template_db;  // preloaded with `preload` persons
  std::int64_t preload = 0;
  std::string label;  // database name suffix, for logs
};

// A clone of spec.template_db for one run of `kind` ("engine", "pgbench", ...).
ScratchDatabase RunDatabase(const SuiteContext& ctx, const RunSpec& spec, const std::string& kind);

}  // namespace idres::bench
