// One quick run of the whole suite binary against the test cluster, as
// scripts/bench.sh runs it: it must exit 0 (every store check passed) and its
// JSON must say so run by run. Speeds are never asserted.
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/test_db.h"

namespace {

TEST_CASE("a quick suite run leaves correct stores and reports every run", "[pg]") {
  const char* idres = std::getenv("IDRES_BINARY");
  REQUIRE(idres != nullptr);
  const std::string dir = "/tmp/idres-bench-smoke-" + std::to_string(::getpid());
  const std::string json = dir + "/results.json";
  const std::string cmd = std::string(IDRES_BENCH_BINARY) + " --database-url '" +
                          idres::testing::AdminUrl() + "' --idres '" + idres +
                          "' --quick --scenarios ac --clients 8 --seconds 1 --preload 1000"
                          " --wire-ops 20 --work-dir " +
                          dir + " --json " + json + " > " + dir + ".out 2>&1";
  std::filesystem::create_directories(dir);
  const int status = std::system(cmd.c_str());
  INFO("output in " << dir << "/run.out");
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);

  std::ifstream in(json);
  const nlohmann::json results = nlohmann::json::parse(in);
  CHECK(results["failures"].empty());
  int idres_runs = 0, naive_runs = 0, http_runs = 0;
  for (const auto& run : results["runs"]) {
    INFO(run.dump());
    CHECK(run["ops"].get<long long>() > 0);
    if (run["variant"] == "naive") ++naive_runs;
    if (run["variant"] != "idres") continue;
    ++idres_runs;
    if (run["transport"] == "http") ++http_runs;
    CHECK(run["store"]["ok"].get<bool>());
    CHECK(run["store"]["duplicated_unique_values"].get<long long>() == 0);
  }
  CHECK(idres_runs == 4);  // a and c, in-process and over HTTP
  CHECK(http_runs == 2);
  CHECK(naive_runs == 2);
  CHECK(results["wire"].size() >= 2);
  if (results["failures"].empty()) std::filesystem::remove_all(dir);
}

}  // namespace
