// SuiteOptions: what one run of the suite measures, from the command line.
// Defaults are the documented default run (about 15 minutes on 2 cores);
// --quick is a minute-scale smoke run, --million the full scale measurement.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace idres::bench {

struct SuiteOptions {
  std::string database_url;  // admin URL of the cluster (its databases stay)
  std::string idres_binary;
  std::string pgbench;
  std::vector<int> clients = {1, 8, 32, 64};
  double seconds = 8;
  // Each measurement of (a)-(d) and of the scale runs this many times,
  // interleaved; the median by throughput is kept.
  int repeat = 1;
  std::string scenarios = "abcdef";
  std::int64_t preload = 10000;
  std::int64_t large = 100000;  // scale comparison store; 0 skips it
  int scale_clients = 32;
  std::int64_t import_records = 100000;
  int import_chunk = 500;
  std::vector<int> import_workers = {8};
  // Records of the growth run (an import into a fresh store, reported by
  // tenth); 0 skips it. --million: 1,000,000.
  std::int64_t growth_records = 0;
  std::int64_t wire_ops = 200;
  bool http = true;
  bool grpc = true;  // the runs over gRPC beside those over Connect
  bool pgbench_runs = true;
  bool naive = true;
  std::string json_path;
  std::string chart_path;
  std::string work_dir;
  std::vector<std::string> serve_args;
  // Database connections of the runs of (a)-(d), in-process and served:
  // the clients, at most this many (0: no bound). Default 2 x the cores.
  int pool_cap = 0;
  std::vector<std::string> import_args;  // empty: no `idres import` run
  std::string model_file;                // of the in-process runs; empty: the built-in model
};

// Parses argv; returns false (after printing help or the error) when the
// program should exit with `exit_code`.
bool ParseOptions(int argc, char** argv, SuiteOptions& options, int& exit_code);

}  // namespace idres::bench
