#include "bench/suite/goals.h"

#include <catch2/catch.hpp>

namespace idres::bench {
namespace {

RunResult Run(const std::string& variant, const std::string& transport, int clients,
              double throughput) {
  RunResult r;
  r.scenario = "a";
  r.variant = variant;
  r.transport = transport;
  r.clients = clients;
  r.throughput = throughput;
  return r;
}

// Goal 1 is the first goal EvaluateGoals returns.
Goal HttpGoal(const std::vector<RunResult>& runs) { return EvaluateGoals(runs).at(0); }

TEST_CASE("goal 1 compares HTTP at 32 clients with pgbench's fastest client count") {
  // pgbench at 32 (1,500/s) sits below its best (3,000/s at 4): against it
  // HTTP's 2,000/s would be 1.33, against the best it is 0.67.
  const std::vector<RunResult> runs{Run("pgbench", "sql", 4, 3000), Run("pgbench", "sql", 32, 1500),
                                    Run("idres", "http", 32, 2000), Run("idres", "http", 4, 2900)};
  const Goal g = HttpGoal(runs);
  CHECK(g.verdict == "not met");
  CHECK(g.measured.rfind("0.67 (http 2000/s, pgbench 3000/s at 4)", 0) == 0);
  CHECK(g.measured.find("against pgbench at 32 (1500/s): 1.33") != std::string::npos);
}

TEST_CASE("goal 1 is met at 0.8 of pgbench's best and needs both runs") {
  CHECK(HttpGoal({Run("pgbench", "sql", 32, 1000), Run("idres", "http", 32, 800)}).verdict ==
        "met");
  CHECK(HttpGoal({Run("pgbench", "sql", 32, 1000), Run("idres", "http", 32, 799)}).verdict ==
        "not met");
  CHECK(HttpGoal({Run("pgbench", "sql", 8, 1000)}).verdict == "not measured");
  CHECK(HttpGoal({Run("idres", "http", 32, 800)}).verdict == "not measured");
}

}  // namespace
}  // namespace idres::bench
