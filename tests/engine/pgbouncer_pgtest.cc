// Through PgBouncer in transaction pooling mode (scripts/test.sh starts it
// and exports IDRES_TEST_PGBOUNCER_PORT): the engine, with prepared
// statements off, still wins the races — transaction-level advisory locks
// live exactly as long as the server connection is ours.
#include <catch2/catch.hpp>
#include <cstdlib>

#include "engine/engine.h"
#include "tests/engine/engine_fixture.h"
#include "tests/engine/race_check.h"

namespace idres::testing {
namespace {

// `url` (postgresql://user@host:port/db) pointed at the local PgBouncer.
std::string ViaBouncer(const std::string& url) {
  const char* port = std::getenv("IDRES_TEST_PGBOUNCER_PORT");
  if (port == nullptr || *port == '\0') {
    FAIL(
        "IDRES_TEST_PGBOUNCER_PORT is not set: run the tests through scripts/test.sh, "
        "which starts PgBouncer in transaction mode");
  }
  const auto at = url.find('@');
  const auto slash = url.find('/', at);
  REQUIRE(at != std::string::npos);
  REQUIRE(slash != std::string::npos);
  return url.substr(0, at + 1) + "127.0.0.1:" + port + url.substr(slash);
}

void ThroughBouncer(EngineOptions& o) {
  o.database_url = ViaBouncer(o.database_url);
  o.prepared_statements = false;
}

TEST_CASE("pgbouncer: two identical upserts at once give one person", "[pg][pgbouncer]") {
  Race race;
  race.options = ThroughBouncer;
  race.record = [](int i) { return Rec({{"email", "pair" + std::to_string(i / 2) + "@x.org"}}); };
  race.violation = [](const TestDatabase& db, Engine&) -> std::string {
    const auto persons = PersonCount(db);
    return persons == 4 ? "" : "persons: " + std::to_string(persons);
  };
  CheckRace(race);
}

TEST_CASE("pgbouncer: the same person through email and cookie: no update lost",
          "[pg][pgbouncer]") {
  Race race;
  race.options = ThroughBouncer;
  race.drop_unique_index_unlocked = false;
  race.setup = [](const TestDatabase&, Engine& engine) {
    engine.Upsert(Rec({{"email", "anna@x.org"}, {"cookie", "ck-anna"}}));
  };
  race.record = [](int i) {
    Record r = i % 2 ? Rec({{"cookie", "ck-anna"}}) : Rec({{"email", "anna@x.org"}});
    r.traits["k" + std::to_string(i)] = true;
    return r;
  };
  race.violation = [](const TestDatabase& db, Engine&) -> std::string {
    if (PersonCount(db) != 1) return "persons: " + std::to_string(PersonCount(db));
    const auto keys = db.Count("SELECT count(*) FROM persons, jsonb_object_keys(traits)");
    return keys == 8 ? "" : "trait keys kept: " + std::to_string(keys);
  };
  CheckRace(race);
}

}  // namespace
}  // namespace idres::testing
