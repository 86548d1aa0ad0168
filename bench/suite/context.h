// SuiteContext: what every part of the suite needs to know about where it
// runs: the cluster, the executables, where logs go, and how `idres serve`
// is started. Built once by main() from the options; read-only afterwards,
// so it may be shared by all threads.
#pragma once

#include <string>
#include <vector>

#include "bench/suite/cluster.h"
#include "matcher/model.h"

namespace idres::bench {

struct SuiteContext {
  Cluster cluster;
  std::string db_prefix;     // every database the suite makes starts with this
  std::string idres_binary;  // the `idres` executable, for serve and import
  std::string pgbench = "pgbench";
  std::string work_dir;  // logs, pgbench scripts, chart data
  // argv of `idres serve` after the binary; {port}, {url} and {pool} are
  // replaced.
  std::vector<std::string> serve_args;
  int pool_cap = 0;  // SuiteOptions::pool_cap
  int http_port_first = 18500;
  int http_port_last = 18599;
  Model model = Model::Defaults();  // of the in-process runs (--model)
};

// The database connections of a run with `clients` clients: the clients, at
// most ctx.pool_cap of them (when that is set).
int PoolFor(const SuiteContext& ctx, int clients);

// `args` with {port}, {url}, {pool} (and {file}) replaced.
std::vector<std::string> Expand(const std::vector<std::string>& args, const std::string& port,
                                const std::string& url, const std::string& pool,
                                const std::string& file = {});

}  // namespace idres::bench
