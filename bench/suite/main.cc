// idres_bench: the benchmark suite. scripts/bench.sh builds it,
// starts a throwaway cluster and runs it; BENCHMARKS.md holds the results.
// Exit status: 0 when every store check that must pass passed and every run
// ran; 1 otherwise; 2 for bad arguments. Goals never decide it.
#include <fmt/chrono.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>
#include <thread>

#include "base/allocator.h"
#include "bench/suite/options.h"
#include "bench/suite/report.h"
#include "bench/suite/suite.h"
#include "matcher/model_file.h"

namespace {

std::string UtcNow() {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
}

constexpr const char* kSettings =
    "SELECT name, setting || COALESCE(unit, '') FROM pg_settings WHERE name IN "
    "('shared_buffers', 'max_connections', 'fsync', 'synchronous_commit', 'full_page_writes', "
    "'max_locks_per_transaction', 'work_mem', 'wal_level', 'checkpoint_timeout', 'max_wal_size', "
    "'wal_compression') "
    "ORDER BY name";

nlohmann::json ClusterFacts(const std::string& url) {
  nlohmann::json facts;
  pqxx::connection conn(url);
  pqxx::nontransaction tx(conn);
  facts["version"] = tx.exec("SELECT version()")[0][0].c_str();
  for (const auto& row : tx.exec(kSettings)) facts["settings"][row[0].c_str()] = row[1].c_str();
  return facts;
}

}  // namespace

int main(int argc, char** argv) {
  idres::bench::SuiteOptions options;
  int exit_code = 0;
  if (!idres::bench::ParseOptions(argc, argv, options, exit_code)) return exit_code;
  std::filesystem::create_directories(options.work_dir);

  idres::bench::SuiteContext ctx{idres::bench::Cluster(options.database_url),
                                 "idres_bench_" + std::to_string(::getpid()),
                                 options.idres_binary,
                                 options.pgbench,
                                 options.work_dir,
                                 options.serve_args,
                                 options.pool_cap};
  if (!options.model_file.empty()) {
    auto model = idres::LoadModelFile(options.model_file);
    if (auto* error = std::get_if<std::string>(&model)) {
      std::cerr << *error << "\n";
      return 2;
    }
    ctx.model = std::get<idres::Model>(std::move(model));
  }
  nlohmann::json meta;
  meta["started_at"] = UtcNow();
  meta["cores"] = std::thread::hardware_concurrency();
  meta["allocator"] = idres::AllocatorName();
  meta["options"] = {{"clients", options.clients},
                     {"seconds", options.seconds},
                     {"repeat", options.repeat},
                     {"scenarios", options.scenarios},
                     {"preload", options.preload},
                     {"large", options.large},
                     {"scale_clients", options.scale_clients},
                     {"import_records", options.import_records},
                     {"import_workers", options.import_workers},
                     {"pool_cap", options.pool_cap},
                     {"model", options.model_file}};
  try {
    meta["postgres"] = ClusterFacts(options.database_url);
  } catch (const std::exception& e) {
    std::cerr << "cannot reach the cluster: " << e.what() << "\n";
    return 1;
  }

  idres::bench::Suite suite(options, ctx);
  idres::bench::SuiteResults results = suite.Run();
  meta["finished_at"] = UtcNow();

  std::cout << "PostgreSQL: " << meta["postgres"]["version"].get<std::string>()
            << "\nidres allocator: " << meta["allocator"].get<std::string>()
            << "\nsettings: " << meta["postgres"]["settings"].dump() << "\n";
  idres::bench::PrintReport(std::cout, results);
  if (!options.json_path.empty()) {
    idres::bench::WriteJson(options.json_path, results, meta.dump());
    std::cout << "JSON: " << options.json_path << "\n";
  }
  if (!options.chart_path.empty()) {
    const std::string error = idres::bench::WriteChart(options.chart_path, results);
    if (error.empty()) {
      std::cout << "chart: " << options.chart_path << "\n";
    } else {
      std::cout << "chart not drawn: " << error << "\n";
    }
  }
  return results.failures.empty() ? 0 : 1;
}
