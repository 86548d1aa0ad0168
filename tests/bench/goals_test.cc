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

TEST_CASE("rounds are compared with rounds, so a slow phase cancels out") {
  // A slow phase (every variant at half speed) hit HTTP in rounds 2 and 3
  // and pgbench in rounds 1 and 2: the medians (2,000 vs 1,500) say 1.33,
  // but in every round HTTP ran at 0.8 of pgbench.
  RunResult http = Run("idres", "http", 32, 2000);
  http.rounds = {1600, 800, 800, 1600, 2000};
  RunResult pgbench = Run("pgbench", "sql", 4, 1500);
  pgbench.rounds = {1000, 1000, 1000, 2000, 2500};
  CHECK(*Ratio(&http, &pgbench) == Approx(1.333).epsilon(0.001));
  CHECK(*PairedRatio(&http, &pgbench) == Approx(0.8));
  // A round where one side failed (0) is left out.
  http.rounds = {1600, 0, 800, 1600, 2000};
  CHECK(*PairedRatio(&http, &pgbench) == Approx(0.8));
  // Not run in the same rounds: the medians' ratio.
  pgbench.rounds = {};
  CHECK(*PairedRatio(&http, &pgbench) == Approx(1.333).epsilon(0.001));
}

TEST_CASE("goal 1 takes the rounds' ratios when the runs have rounds") {
  RunResult http = Run("idres", "http", 32, 2000);
  http.rounds = {1600, 800, 800, 1600, 2000};
  RunResult pgbench = Run("pgbench", "sql", 4, 1500);
  pgbench.rounds = {1000, 1000, 1000, 2000, 2500};
  const Goal g = HttpGoal({http, pgbench});
  CHECK(g.verdict == "met");
  CHECK(g.measured.rfind("0.80 (http 2000/s, pgbench 1500/s at 4)", 0) == 0);
  CHECK(g.measured.find("median of the rounds' ratios") != std::string::npos);
}

}  // namespace
}  // namespace idres::bench
