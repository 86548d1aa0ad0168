// The matching model through the engine, on a real PostgreSQL: the cases of
// docs/matching.md ("The matching model"), each decided by upserts in
// order, and a race of fuzzy duplicates that only a shared blocking key
// keeps together.
#include <catch2/catch.hpp>

#include <string>

#include "tests/engine/engine_fixture.h"
#include "tests/engine/race_check.h"

namespace idres::testing {
namespace {

std::int64_t Merges(const TestDatabase& db) { return db.Count("SELECT count(*) FROM merges"); }

TEST_CASE("an office: twenty people sharing one email stay twenty", "[pg][model]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const char* given[] = {"anna", "ben",  "carla", "dev",  "emil", "fatima", "gus",
                         "hana", "ivan", "jo",    "kai",  "lena", "max",    "nora",
                         "otto", "pia",  "quinn", "rosa", "sven", "tara"};
  for (int i = 0; i < 20; ++i) {
    const auto r = engine->Upsert(
        Rec({{"email", "info@agency.example"},
             {"name", std::string(given[i]) + " worker" + given[i]},
             {"birth_date", std::to_string(1950 + 2 * i) + "-0" + std::to_string(1 + i % 9) + "-1" +
                                std::to_string(i % 10)}}));
    REQUIRE(r.ok());
  }
  CHECK(PersonCount(db) == 20);
  // The email alone: generic by now (held by 20, cap 5), it finds no one.
  const auto alone = engine->Upsert(Rec({{"email", "info@agency.example"}}));
  CHECK(alone.outcome == Outcome::kCreated);
  // The result says why: the email was treated as generic.
  CHECK(alone.generic == std::vector<Identifier>{{"email", "info@agency.example"}});
  CHECK(Merges(db) == 0);
  // Lookup of a shared value answers with every holder, oldest first.
  const auto found = engine->Lookup({"email", "Info@Agency.example"});
  REQUIRE(std::holds_alternative<std::vector<Person>>(found));
  const auto& holders = std::get<std::vector<Person>>(found);
  REQUIRE(holders.size() == 21);
  for (std::size_t i = 1; i < holders.size(); ++i) CHECK(holders[i - 1].id < holders[i].id);
}

TEST_CASE("a family shares email, phone and address, not its names and birth dates",
          "[pg][model]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const auto Member = [&](const char* name, const char* born, const char* phone) {
    return engine->Upsert(Rec({{"email", "doe@family.example"},
                               {"phone", phone},
                               {"address", "12 Main Street, 10115"},
                               {"name", name},
                               {"birth_date", born}}));
  };
  const auto father = Member("John Doe", "1970-01-01", "+15551230000");
  const auto mother = Member("Jane Doe", "1972-06-30", "+15551230000");
  const auto child = Member("Jim Doe", "2005-09-09", "+15551230000");
  CHECK(PersonCount(db) == 3);
  const auto again = Member("Jane Doe", "1972-06-30", "+15559876543");
  CHECK(again.person_id == mother.person_id);
  CHECK(again.outcome == Outcome::kUpdated);
  CHECK(father.person_id != child.person_id);
}

TEST_CASE("nicknames and namesakes", "[pg][model]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const auto bob = engine->Upsert(
      Rec({{"name", "Bob Smith"}, {"birth_date", "1960-03-04"}, {"phone", "+15550001111"}}));
  const auto robert = engine->Upsert(
      Rec({{"name", "Robert Smith"}, {"birth_date", "1960-03-04"}, {"phone", "+15550001111"}}));
  CHECK(robert.person_id == bob.person_id);
  const auto senior = engine->Upsert(Rec(
      {{"name", "Robert Smith"}, {"birth_date", "1954-07-09"}, {"address", "5 Oak Ave 10115"}}));
  const auto junior = engine->Upsert(Rec(
      {{"name", "Robert Smith"}, {"birth_date", "1978-02-02"}, {"address", "5 Oak Ave 10115"}}));
  CHECK(senior.person_id != junior.person_id);
  CHECK(PersonCount(db) == 3);
}

TEST_CASE("swapped dates and a typo join, another passport does not", "[pg][model]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const auto a = engine->Upsert(
      Rec({{"name", "Anna Meier"}, {"birth_date", "11/12/1978"}, {"email", "anna@meier.example"}}));
  const auto b = engine->Upsert(
      Rec({{"name", "Anna Meier"}, {"birth_date", "12/11/1978"}, {"email", "anna@meier.example"}}));
  CHECK(b.person_id == a.person_id);
  const auto p1 = engine->Upsert(
      Rec({{"name", "Carl Brandt"}, {"birth_date", "1966-05-05"}, {"passport", "C01X00T47"}}));
  const auto p2 = engine->Upsert(
      Rec({{"name", "Carl Brandt"}, {"birth_date", "1966-05-05"}, {"passport", "L898902C3"}}));
  CHECK(p2.person_id != p1.person_id);
  const auto r1 = engine->Upsert(Rec(
      {{"name", "Robert Smith"}, {"birth_date", "1981-01-02"}, {"email", "roberta25@smith.net"}}));
  const auto r2 = engine->Upsert(Rec(
      {{"name", "Robert Smith"}, {"birth_date", "1981-01-02"}, {"email", "robert25@smith.net"}}));
  CHECK(r2.person_id == r1.person_id);
}

// No strong value in common: only the blocking key of (phonetic surname SM0,
// 1978) puts the eight records in one queue. Without the locks they read
// before each other committed and make several persons.
TEST_CASE("race: Jon Smyth and John Smith at once, no shared strong value: one person",
          "[pg][race][model]") {
  Race race;
  race.record = [](int i) {
    return Rec({{"name", i % 2 ? "John Smith" : "Jon Smyth"},
                {"birth_date", "1978-04-01"},
                {"postal_code", "10115"},
                {"cookie", "device-" + std::to_string(i)}});
  };
  race.violation = [](const TestDatabase& db, Engine&) -> std::string {
    const std::int64_t n = PersonCount(db);
    return n == 1 ? "" : std::to_string(n) + " persons, expected 1";
  };
  CheckRace(race);
}

}  // namespace
}  // namespace idres::testing
