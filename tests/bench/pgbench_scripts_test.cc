#include "bench/suite/pgbench_scripts.h"

#include <catch2/catch.hpp>

#include <cctype>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace idres::bench {
namespace {

// Round trips of a script in -M prepared: one per SQL command outside a
// pipeline, one per pipeline (its single Sync). Commands end with ';'.
int RoundTrips(const std::string& script) {
  std::istringstream in(script);
  int trips = 0;
  bool in_pipeline = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "\\startpipeline") in_pipeline = true;
    if (line == "\\endpipeline") {
      in_pipeline = false;
      ++trips;
    }
    if (!line.empty() && line[0] != '\\' && line.back() == ';' && !in_pipeline) ++trips;
  }
  return trips;
}

// The text of the script's first pipeline.
std::string FirstPipeline(const std::string& script) {
  const auto begin = script.find("\\startpipeline\n");
  const auto end = script.find("\\endpipeline\n");
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  return script.substr(begin, end - begin);
}

// The variables ("name" of ":name", not of a "::type" cast) that `line` uses.
std::vector<std::string> Uses(const std::string& line) {
  std::vector<std::string> names;
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i + 1 < line.size(); ++i) {
    if (line[i] != ':' || (i > 0 && line[i - 1] == ':')) continue;
    if (std::isalpha(static_cast<unsigned char>(line[i + 1])) == 0 && line[i + 1] != '_') continue;
    std::size_t end = i + 1;
    while (end < line.size() && word(line[end])) ++end;
    names.push_back(line.substr(i + 1, end - i - 1));
  }
  return names;
}

// The variables `script` uses where no \set before it, on that branch of
// its \if, nor `given` (pgbench's -D and its own) has set them. pgbench
// sends such a variable as NULL in -M prepared: a client then fails on a
// NOT NULL column and aborts, and the baseline runs one client short.
std::set<std::string> Unset(const std::string& script, std::set<std::string> given) {
  std::set<std::string> unset;
  std::vector<std::set<std::string>> at_if;
  std::istringstream in(script);
  for (std::string line; std::getline(in, line);) {
    for (const std::string& name : Uses(line)) {
      if (!given.contains(name)) unset.insert(name);
    }
    if (line.rfind("\\if ", 0) == 0) at_if.push_back(given);
    if (line == "\\else") given = at_if.back();
    if (line == "\\endif") {
      given = at_if.back();
      at_if.pop_back();
    }
    if (line.rfind("\\set ", 0) == 0) given.insert(line.substr(5, line.find(' ', 5) - 5));
  }
  return unset;
}

TEST_CASE("each script sets every variable it uses, on every branch") {
  // What pgbench_runs.cc passes with -D, and pgbench's own.
  const std::set<std::string> given = {"first", "persons",  "half",
                                       "round", "nclients", "client_id"};
  CHECK(Unset(PgbenchNewScript(), given) == std::set<std::string>{});
  CHECK(Unset(PgbenchUpdateScript(), given) == std::set<std::string>{});
  CHECK(Unset(PgbenchBridgeScript(), given) == std::set<std::string>{});
  // The check sees a variable set on the other branch only.
  CHECK(Unset("\\if 1\n\\set a 1\n\\else\nSELECT :a;\n\\endif\n", given) ==
        std::set<std::string>{"a"});
}

TEST_CASE("each script opens with the engine's first message as one pipeline") {
  const std::string timeout = "set_config('lock_timeout', '" +
                              std::to_string(EngineOptions{}.lock_timeout.count()) + "ms', true);";
  for (const std::string& script :
       {PgbenchNewScript(), PgbenchUpdateScript(), PgbenchBridgeScript()}) {
    const std::string first = FirstPipeline(script);
    CHECK(first.find("BEGIN ISOLATION LEVEL READ COMMITTED;") != std::string::npos);
    CHECK(first.find(timeout) != std::string::npos);
    CHECK(first.find("pg_advisory_xact_lock(k)") != std::string::npos);
    CHECK(first.find("FROM match_keys m WHERE m.key = r.key") !=
          std::string::npos);  // the candidate read
    // Every BEGIN (the bridge's fallback has its own) opens a pipeline.
    for (auto at = script.find("BEGIN"); at != std::string::npos;
         at = script.find("BEGIN", at + 1)) {
      CHECK(script.rfind("\\startpipeline\n", at) == at - 15);
    }
  }
}

TEST_CASE("the scripts take the engine's round trips: new 2, update 3, bridge 3") {
  CHECK(RoundTrips(PgbenchNewScript()) == 2);
  CHECK(RoundTrips(PgbenchUpdateScript()) == 3);
  const std::string bridge = PgbenchBridgeScript();
  const auto fallback = bridge.find("\\else\n");
  REQUIRE(fallback != std::string::npos);
  CHECK(RoundTrips(bridge.substr(0, fallback)) == 3);
  // Once the pairs run out, the bridge script is the update.
  CHECK(RoundTrips(bridge.substr(fallback)) == 3);
  // Every COMMIT goes with the writes before it.
  for (const std::string& script : {PgbenchNewScript(), PgbenchUpdateScript(), bridge}) {
    for (auto at = script.find("COMMIT;\n"); at != std::string::npos;
         at = script.find("COMMIT;\n", at + 1)) {
      CHECK(script.compare(at + 8, 13, "\\endpipeline\n") == 0);
    }
  }
}

TEST_CASE("the new script locks and stores as many keys as the engine plans for (a)") {
  const LockPlan plan = NewRecordPlan();
  REQUIRE_FALSE(plan.error);
  // Email, phone and blocking keys of the name, birth date and postal code.
  REQUIRE(plan.match_keys.size() > 1);
  REQUIRE(plan.lock_keys.size() == plan.match_keys.size() + 2);
  const std::string script = PgbenchNewScript();
  std::size_t sets = 0;
  for (auto at = script.find("\\set k"); at != std::string::npos;
       at = script.find("\\set k", at + 1)) {
    ++sets;
  }
  CHECK(sets == plan.lock_keys.size());
  // The last match key variable is the last lock key variable.
  const std::string last = ":k" + std::to_string(plan.lock_keys.size());
  CHECK(script.find(last + "]") != std::string::npos);
  // The counts of the weak values are read, as the engine reads them.
  CHECK(script.find("'name', 'birth_date', 'postal_code'") != std::string::npos);
}

TEST_CASE("the bridge merges the absorbed person as kMoveIdentifiers/kRedirectAndDelete do") {
  const std::string bridge = PgbenchBridgeScript();
  CHECK(bridge.find("WITH moved AS (DELETE FROM identifiers") != std::string::npos);
  CHECK(bridge.find("INSERT INTO merges (absorbed_id, survivor_id, reason, scores)") !=
        std::string::npos);
  CHECK(bridge.find("DELETE FROM persons WHERE id = ANY(ARRAY[:absorbed]::bigint[])") !=
        std::string::npos);
}

}  // namespace
}  // namespace idres::bench
