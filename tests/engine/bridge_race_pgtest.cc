// The bridge race: records that each link two existing or new persons, all
// at once, must end as one person that every old id resolves to.
#include <catch2/catch.hpp>
#include <memory>

#include "engine/engine.h"
#include "tests/engine/engine_fixture.h"
#include "tests/engine/race_check.h"

namespace idres::testing {
namespace {

const char* kA = "a@bridge.org";
const char* kB = "+4917055500000";

TEST_CASE("race: bridge records merge A and B into one person holding a, b, c, d", "[pg][race]") {
  auto ids = std::make_shared<std::pair<std::int64_t, std::int64_t>>();
  Race race;
  race.threads = 9;  // each of the three records three times
  // Without locks this race breaks in only about one round of six even with
  // the racers lined up (a round breaks only when a cookie lands on B after
  // the last merge moved B's identifiers), and 30 rounds once all passed on
  // a loaded CI machine: 80 rounds leave well under one chance in a million
  // of a false alarm. The loop stops at the first violation.
  race.unlocked_rounds = 80;
  race.setup = [ids](const TestDatabase&, Engine& engine) {
    ids->first = engine.Upsert(Rec({{"email", kA}})).person_id;
    ids->second = engine.Upsert(Rec({{"phone", kB}})).person_id;
  };
  race.record = [](int i) {
    switch (i % 3) {
      case 0:
        return Rec({{"email", kA}, {"phone", kB}});
      case 1:
        return Rec({{"phone", kB}, {"cookie", "c"}});
      default:
        return Rec({{"email", kA}, {"cookie", "d"}});
    }
  };
  race.violation = [ids](const TestDatabase& db, Engine& engine) -> std::string {
    if (PersonCount(db) != 1) return "persons: " + std::to_string(PersonCount(db));
    const std::int64_t live = db.Count("SELECT id FROM persons");
    const std::vector<std::string> expected = {"cookie:c", "cookie:d", "email:" + std::string(kA),
                                               "phone:" + std::string(kB)};
    if (IdentifiersOf(db, live) != expected) return "the survivor lacks identifiers";
    const auto a = engine.GetPerson(ids->first);
    const auto b = engine.GetPerson(ids->second);
    if (!a || !b || a->id != live || b->id != live) return "old ids do not resolve to it";
    if (live != ids->first) return "the survivor is not the oldest";
    return "";
  };
  CheckRace(race);
}

}  // namespace
}  // namespace idres::testing
