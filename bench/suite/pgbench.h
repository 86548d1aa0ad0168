// RunPgbench: pgbench (Debian's postgresql-contrib) running scripts of
// pgbench_scripts.h (several: picked at random by weight, as pgbench's -f
// file@weight does) for a fixed time, as the database's own limit for the
// engine's transaction shape. Throughput from pgbench's summary; p50/p95/p99
// from its per-transaction log (-l).
// Thread-safety: a plain blocking function; runs one child process.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bench/suite/results.h"

namespace idres::bench {

struct PgbenchScript {
  std::string name;  // file name stem, e.g. "new"
  std::string text;
  int weight = 1;
};

struct PgbenchOptions {
  std::string pgbench = "pgbench";  // the executable
  std::vector<PgbenchScript> scripts;
  std::string url;  // database URL
  int clients = 1;
  double seconds = 5;                            // -T; ignored when transactions > 0
  int transactions = 0;                          // -t per client, for counting passes
  std::map<std::string, std::string> variables;  // -D name=value
  std::string work_dir;                          // script, logs and output go here
};

// Runs pgbench; `ops`, `errors`, `seconds`, `throughput` and the latency
// quantiles of the result are set; first_error holds pgbench's complaint.
RunResult RunPgbench(const PgbenchOptions& options);

}  // namespace idres::bench
