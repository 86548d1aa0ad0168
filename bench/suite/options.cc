#include "bench/suite/options.h"

#include <CLI/CLI.hpp>

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <thread>

namespace idres::bench {
namespace {

std::vector<std::string> Words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

bool ParseOptions(int argc, char** argv, SuiteOptions& o, int& exit_code) {
  CLI::App app{
      "idres benchmark suite: scenarios a-f in-process and over HTTP, "
      "beside the naive path and pgbench. See BENCHMARKS.md."};
  bool quick = false, million = false, no_http = false, no_grpc = false, no_pgbench = false,
       no_naive = false;
  std::string serve_args =
      "serve --listen 127.0.0.1:{port} --database-url {url} --pool-size {pool}";
  std::string import_args =
      "import {file} --database-url {url} --no-checkpoint --progress off --dead-letter {file}.dead";
  o.pgbench = std::filesystem::exists("/usr/lib/postgresql/15/bin/pgbench")
                  ? "/usr/lib/postgresql/15/bin/pgbench"
                  : "pgbench";
  app.add_option("--database-url", o.database_url, "admin URL of the cluster under test")
      ->envname("IDRES_DATABASE_URL")
      ->required();
  app.add_option("--idres", o.idres_binary, "the idres executable (serve, import)")
      ->envname("IDRES_BINARY");
  app.add_option("--pgbench", o.pgbench, "the pgbench executable");
  app.add_option("--clients", o.clients, "client counts")->delimiter(',');
  app.add_option("--seconds", o.seconds, "seconds per measurement");
  app.add_option("--repeat", o.repeat,
                 "runs of each measurement of a-d and scale, interleaved; the median is kept")
      ->check(CLI::Range(1, 9));
  app.add_option("--scenarios", o.scenarios, "which of a b c d e f");
  app.add_option("--preload", o.preload, "persons preloaded for scenarios a-d");
  app.add_option("--large", o.large, "persons of the large store for the scale runs (0: skip)");
  app.add_option("--scale-clients", o.scale_clients, "clients of the scale runs");
  app.add_option("--import-records", o.import_records, "records of scenario e");
  app.add_option("--growth-records", o.growth_records,
                 "records of the growth run: an import into a fresh store, by tenth (0: skip)");
  app.add_option("--import-workers", o.import_workers, "parallel importers")->delimiter(',');
  app.add_option("--wire-ops", o.wire_ops, "upserts of each wire-counting pass");
  app.add_flag("--quick", quick, "smoke run: clients 1,8, 2 s each, 10,000 imports, no scale");
  app.add_flag("--million", million, "scale runs against 1,000,000 persons (the goal's size)");
  app.add_flag("--no-http", no_http, "skip the runs over HTTP (Connect and gRPC)");
  app.add_flag("--no-grpc", no_grpc, "skip the runs over gRPC");
  app.add_flag("--no-pgbench", no_pgbench, "skip pgbench");
  app.add_flag("--no-naive", no_naive, "skip the naive path");
  app.add_option("--json", o.json_path, "write the results as JSON here");
  app.add_option("--chart", o.chart_path, "write the throughput chart (SVG) here");
  app.add_option("--work-dir", o.work_dir, "logs and scratch files");
  app.add_option("--serve-args", serve_args, "argv of `idres serve`; {port} {url} {pool}");
  // A pool is sized to the database's cores, not to its callers:
  // PostgreSQL's guidance is about 2 connections per core. On this 2-core
  // machine 4 connections served 32 HTTP clients 1.5x faster than 32.
  o.pool_cap = 2 * static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  app.add_option("--pool-cap", o.pool_cap,
                 "most database connections of a run of a-d, in-process or served "
                 "(0: one per client)");
  app.add_option("--model", o.model_file,
                 "model file (TOML) of the in-process runs; default: the built-in model")
      ->check(CLI::ExistingFile);
  app.add_option("--import-args", import_args,
                 "argv of `idres import` ({url}, {file}: JSON lines); \"\" skips it");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    exit_code = app.exit(e);
    return false;
  }
  if (quick) {
    if (app.count("--clients") == 0) o.clients = {1, 8};
    if (app.count("--seconds") == 0) o.seconds = 2;
    if (app.count("--import-records") == 0) o.import_records = 10000;
    if (app.count("--large") == 0) o.large = 0;
    if (app.count("--wire-ops") == 0) o.wire_ops = 50;
  }
  if (million) {
    o.large = 1000000;
    if (app.count("--growth-records") == 0) o.growth_records = 1000000;
  }
  o.http = !no_http;
  o.grpc = !no_http && !no_grpc;
  o.pgbench_runs = !no_pgbench;
  o.naive = !no_naive;
  o.serve_args = Words(serve_args);
  o.import_args = Words(import_args);
  if (o.work_dir.empty()) o.work_dir = "/tmp/idres-bench-" + std::to_string(::getpid());
  if ((o.http || !o.import_args.empty()) && o.idres_binary.empty()) {
    std::cerr << "--idres (or IDRES_BINARY) is needed for the HTTP and import runs; "
                 "or pass --no-http\n";
    exit_code = 2;
    return false;
  }
  return true;
}

}  // namespace idres::bench
