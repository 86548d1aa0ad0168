// Quick runs of the whole suite binary against the test cluster, as
// scripts/bench.sh runs it: each must exit 0 (every store check that must
// pass passed), its JSON must say so run by run, and every side-by-side row
// BENCHMARKS.md reports must be there. Speeds are never asserted.
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/test_db.h"

namespace {

struct SuiteRun {
  int exit_code = -1;
  nlohmann::json results;
  std::string table;  // stdout
  std::string dir;
};

// Runs idres_bench with `args` (plus the cluster, idres and output paths).
SuiteRun RunSuite(const std::string& name, const std::string& args) {
  const char* idres = std::getenv("IDRES_BINARY");
  REQUIRE(idres != nullptr);
  SuiteRun run;
  run.dir = "/tmp/idres-bench-smoke-" + name + "-" + std::to_string(::getpid());
  std::filesystem::create_directories(run.dir);
  const std::string cmd = std::string(IDRES_BENCH_BINARY) + " --database-url '" +
                          idres::testing::AdminUrl() + "' --idres '" + idres + "' " + args +
                          " --work-dir " + run.dir + " --json " + run.dir + "/results.json > " +
                          run.dir + "/run.out 2>" + run.dir + "/run.err";
  const int status = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(status));
  run.exit_code = WEXITSTATUS(status);
  std::ifstream json(run.dir + "/results.json");
  run.results = nlohmann::json::parse(json);
  std::ifstream out(run.dir + "/run.out");
  std::stringstream ss;
  ss << out.rdbuf();
  run.table = ss.str();
  return run;
}

// The run of scenario `s` with `variant` over `transport`, or null.
const nlohmann::json* Find(const SuiteRun& run, const std::string& section, const std::string& s,
                           const std::string& variant, const std::string& transport) {
  for (const auto& r : run.results["runs"]) {
    if (r["section"] == section && r["scenario"] == s && r["variant"] == variant &&
        r["transport"] == transport) {
      return &r;
    }
  }
  return nullptr;
}

// The ratios of the first JSON ratio row of `section` and scenario `s`.
const nlohmann::json* FindRatios(const SuiteRun& run, const std::string& section,
                                 const std::string& s) {
  for (const auto& row : run.results["ratios"]) {
    if (row["section"] == section && row["scenario"] == s) return &row["ratios"];
  }
  return nullptr;
}

void CheckIdresStores(const SuiteRun& run) {
  for (const auto& r : run.results["runs"]) {
    INFO(r.dump());
    CHECK(r["ops"].get<long long>() > 0);
    if (r["variant"] != "idres") continue;
    CHECK(r["store"]["ok"].get<bool>());
    CHECK(r["store"]["duplicated_unique_values"].get<long long>() == 0);
    // With the locks on, no upsert creates a person the records do not imply.
    if (r["created"].is_number() && r["expected_created"].is_number() &&
        r["errors"].get<long long>() == 0) {
      CHECK(r["created"] == r["expected_created"]);
    }
  }
}

TEST_CASE("a quick run of (a)-(d) puts idres, naive and pgbench side by side", "[pg]") {
  const SuiteRun run = RunSuite("abcd",
                                "--quick --scenarios abcd --clients 8 --seconds 1 --preload 1000"
                                " --wire-ops 20");
  INFO("output in " << run.dir);
  CHECK(run.exit_code == 0);
  CHECK(run.results["failures"].empty());
  CheckIdresStores(run);
  for (const std::string s : {"a", "b", "c", "d"}) {
    INFO("scenario " << s);
    CHECK(Find(run, "scenario", s, "idres", "in-process") != nullptr);
    CHECK(Find(run, "scenario", s, "naive", "in-process") != nullptr);
    CHECK(Find(run, "scenario", s, "idres", "grpc") != nullptr);  // its store checked above
    const auto* pgbench = Find(run, "scenario", s, "pgbench", "sql");
    REQUIRE(pgbench != nullptr);
    CHECK((*pgbench)["store"]["ok"].get<bool>());
    // The HTTP row's counts come from the served process's /metrics.
    const auto* http = Find(run, "scenario", s, "idres", "http");
    REQUIRE(http != nullptr);
    REQUIRE((*http)["created"].is_number());
    REQUIRE((*http)["merged"].is_number());
    if (s == "a") CHECK((*http)["created"].get<long long>() == (*http)["ops"].get<long long>());
    if (s == "b") CHECK((*http)["created"].get<long long>() == 0);
    if (s == "d") CHECK((*http)["merged"].get<long long>() > 0);
    CHECK(run.table.find("\n" + s + "     8 ") != std::string::npos);  // its ratio row
    const auto* ratios = FindRatios(run, "scenario", s);
    REQUIRE(ratios != nullptr);
    for (const char* name : {"in-proc/pgbench", "http/pgbench", "in-proc/naive", "http/naive"}) {
      INFO(name);
      CHECK((*ratios)[name].is_number());
    }
  }
  CHECK(Find(run, "scenario", "d", "pgbench", "sql")->at("merged").get<long long>() > 0);
  CHECK(run.table.find("served /metrics: upserts that created a person") != std::string::npos);
  CHECK(run.results["wire"].size() >= 7);  // a b c d idres, a b d pgbench
  if (run.exit_code == 0) std::filesystem::remove_all(run.dir);
}

TEST_CASE("a quick import run puts idres beside its naive path and COPY", "[pg]") {
  const SuiteRun run =
      RunSuite("e", "--quick --scenarios e --import-records 2000 --no-http --import-args ''");
  INFO("output in " << run.dir);
  CHECK(run.exit_code == 0);
  CHECK(run.results["failures"].empty());
  CheckIdresStores(run);
  CHECK(Find(run, "import", "e", "idres", "in-process") != nullptr);
  CHECK(Find(run, "import", "e", "copy", "sql") != nullptr);
  const auto* naive = Find(run, "import", "e", "naive", "in-process");
  REQUIRE(naive != nullptr);
  CHECK_FALSE((*naive)["check_must_pass"].get<bool>());
  CHECK(run.table.find("== Import ratios") != std::string::npos);
  const auto* ratios = FindRatios(run, "import", "e");
  REQUIRE(ratios != nullptr);
  CHECK((*ratios)["idres/naive"].is_number());
  CHECK((*ratios)["idres/COPY"].is_number());
  if (run.exit_code == 0) std::filesystem::remove_all(run.dir);
}

}  // namespace
