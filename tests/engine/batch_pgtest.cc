// BatchUpsert: order, chunking, per-record errors, and a race of batches.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "engine/engine.h"
#include "tests/engine/engine_fixture.h"
#include "tests/engine/race_check.h"

namespace idres::testing {
namespace {

TEST_CASE("batch: records that match each other end as one person", "[pg][batch]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const std::vector<Record> records = {
      Rec({{"email", "a@x.org"}}, {{"k", 1.0}}),
      Rec({{"email", "nope"}}),  // rejected whole
      Rec({{"email", "a@x.org"}, {"cookie", "c"}}, {{"k", 2.0}}),
      Rec({{"cookie", "c"}, {"phone", "+4917012345678"}}),
      Rec({{"email", "b@x.org"}}),
  };
  const auto results = engine->BatchUpsert(records);
  REQUIRE(results.size() == 5);
  CHECK(results[0].outcome == Outcome::kCreated);
  CHECK_FALSE(results[1].ok());
  CHECK(results[2].outcome == Outcome::kUpdated);
  CHECK(results[2].person_id == results[0].person_id);
  CHECK(results[3].person_id == results[0].person_id);
  CHECK(results[4].outcome == Outcome::kCreated);
  CHECK(PersonCount(db) == 2);
  CHECK(engine->GetPerson(results[0].person_id)->traits.at("k") == TraitValue(2.0));
}

TEST_CASE("batch: small chunks give the same result as one", "[pg][batch]") {
  TestDatabase db;
  EngineOptions o = OptionsFor(db, 1);
  o.batch_max_records = 3;
  o.batch_max_keys = 4;
  Engine engine(o);
  std::vector<Record> records;
  for (int i = 0; i < 20; ++i) {
    records.push_back(Rec({{"email", "p" + std::to_string(i % 7) + "@x.org"},
                           {"cookie", "c" + std::to_string(i % 5)}}));
  }
  const auto results = engine.BatchUpsert(records);
  // Emails mod 7 and cookies mod 5 link all twenty records into one.
  CHECK(PersonCount(db) == 1);
  for (const auto& r : results) CHECK(r.ok());
  CHECK(db.Count("SELECT count(*) FROM identifiers") == 12);
}

TEST_CASE("race: batches of the same records in different orders at once", "[pg][race][batch]") {
  std::vector<Record> records;
  for (int i = 0; i < 40; ++i) {
    records.push_back(Rec(
        {{"email", "p" + std::to_string(i % 10) + "@x.org"}, {"cookie", "c" + std::to_string(i)}},
        {{"k" + std::to_string(i), true}}));
  }
  Race race;
  race.unlocked_rounds = 20;  // batches overlap less than single upserts
  race.work = [&records](Engine& engine, int i, bool locks) {
    std::vector<Record> mine = records;
    std::shuffle(mine.begin(), mine.end(), std::mt19937(i));
    try {
      for (const auto& r : engine.BatchUpsert(mine)) {
        if (!r.ok()) throw std::runtime_error(*r.error);
      }
    } catch (const EngineError&) {
      if (locks) throw;
    }
  };
  race.violation = [](const TestDatabase& db, Engine&) -> std::string {
    if (PersonCount(db) != 10) return "persons: " + std::to_string(PersonCount(db));
    if (DuplicateIdentifiers(db) != 0) return "duplicate identifiers";
    if (db.Count("SELECT count(*) FROM persons, jsonb_object_keys(traits)") != 40) {
      return "trait keys lost";
    }
    return "";
  };
  CheckRace(race);
}

}  // namespace
}  // namespace idres::testing
