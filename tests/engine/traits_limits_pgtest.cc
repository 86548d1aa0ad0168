// How many traits a record may carry and a person may come to hold
// (EngineOptions::max_traits, max_person_traits): a record past either is
// refused with the reason and changes nothing, on the single and the batch
// path alike; a person already past the cap may still be updated.
#include <catch2/catch.hpp>

#include "engine/engine.h"
#include "tests/engine/engine_fixture.h"

namespace idres::testing {
namespace {

Traits Numbered(const std::string& prefix, int n) {
  Traits out;
  for (int i = 0; i < n; ++i) out[prefix + std::to_string(i)] = static_cast<double>(i);
  return out;
}

std::unique_ptr<Engine> Capped(const TestDatabase& db) {
  EngineOptions o = OptionsFor(db, 1);
  o.max_traits = 3;
  o.max_person_traits = 4;
  return std::make_unique<Engine>(o);
}

std::size_t TraitCount(Engine& engine, std::int64_t id) {
  return engine.GetPerson(id)->traits.size();
}

TEST_CASE("a record with more traits than allowed is refused whole", "[pg][engine]") {
  TestDatabase db;
  auto engine = Capped(db);
  const auto r = engine->Upsert(Rec({{"email", "a@x.org"}}, Numbered("t", 4)));
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(*r.error, Catch::Contains("too many traits: 4 (at most 3)"));
  CHECK(PersonCount(db) == 0);
}

TEST_CASE("upserts cannot grow a person's traits past the cap", "[pg][engine]") {
  TestDatabase db;
  auto engine = Capped(db);
  const auto id = engine->Upsert(Rec({{"email", "a@x.org"}}, Numbered("a", 3))).person_id;
  const auto over = engine->Upsert(Rec({{"email", "a@x.org"}}, Numbered("b", 2)));
  REQUIRE_FALSE(over.ok());
  CHECK_THAT(*over.error, Catch::Contains("would hold 5 traits (at most 4)"));
  CHECK(TraitCount(*engine, id) == 3);
  // Up to the cap, and new values of held keys, still go through.
  CHECK(engine->Upsert(Rec({{"email", "a@x.org"}}, Numbered("b", 1))).outcome == Outcome::kUpdated);
  CHECK(engine->Upsert(Rec({{"email", "a@x.org"}}, {{"a0", std::string("new")}})).outcome ==
        Outcome::kUpdated);
  CHECK(TraitCount(*engine, id) == 4);
}

TEST_CASE("a person stored past the cap keeps its traits and may be updated", "[pg][engine]") {
  TestDatabase db;
  const auto id =
      MakeEngine(db, 1)
          ->Upsert(Rec({{"email", "a@x.org"}},
                       {{"a0", 0.0}, {"a1", 1.0}, {"a2", 2.0}, {"a3", 3.0}, {"a4", 4.0}}))
          .person_id;
  auto engine = Capped(db);
  CHECK(engine->Upsert(Rec({{"email", "a@x.org"}}, {{"a0", 9.0}})).outcome == Outcome::kUpdated);
  CHECK_FALSE(engine->Upsert(Rec({{"email", "a@x.org"}}, {{"new", 1.0}})).ok());
  CHECK(TraitCount(*engine, id) == 5);
}

TEST_CASE("a batch refuses the record that would pass the cap, and applies the rest",
          "[pg][engine]") {
  TestDatabase db;
  auto engine = Capped(db);
  const std::vector<Record> records = {Rec({{"email", "a@x.org"}}, Numbered("a", 3)),
                                       Rec({{"email", "a@x.org"}}, Numbered("b", 2)),
                                       Rec({{"email", "b@x.org"}}, Numbered("c", 2))};
  const auto results = engine->BatchUpsert(records);
  REQUIRE(results.size() == 3);
  CHECK(results[0].ok());
  REQUIRE_FALSE(results[1].ok());
  CHECK_THAT(*results[1].error, Catch::Contains("would hold 5 traits"));
  CHECK(results[2].ok());
  CHECK(PersonCount(db) == 2);
  CHECK(TraitCount(*engine, results[0].person_id) == 3);
}

TEST_CASE("the cap never blocks a merge, the record's own new keys are what it limits",
          "[pg][engine]") {
  TestDatabase db;
  auto engine = Capped(db);
  const auto a = engine->Upsert(Rec({{"email", "a@x.org"}}, Numbered("a", 3))).person_id;
  const auto b = engine->Upsert(Rec({{"phone", "+4917011111111"}}, Numbered("b", 3))).person_id;
  // Bridging both: six traits together, past the cap of four, yet merged.
  const auto bridge = engine->Upsert(Rec({{"email", "a@x.org"}, {"phone", "+4917011111111"}}));
  REQUIRE(bridge.ok());
  CHECK(bridge.outcome == Outcome::kMerged);
  CHECK(TraitCount(*engine, bridge.person_id) == 6);
  CHECK((bridge.person_id == a || bridge.person_id == b));
  // New keys on top are refused; values of held keys are not.
  CHECK_FALSE(engine->Upsert(Rec({{"email", "a@x.org"}}, {{"new", 1.0}})).ok());
  CHECK(engine->Upsert(Rec({{"email", "a@x.org"}}, {{"a0", 7.0}})).ok());
}

TEST_CASE("a refused batch record gets no receipt: sent again, it is refused again",
          "[pg][engine]") {
  TestDatabase db;
  auto engine = Capped(db);
  REQUIRE(engine->Upsert(Rec({{"email", "a@x.org"}}, Numbered("a", 3))).ok());
  const std::vector<Record> records = {Rec({{"email", "a@x.org"}}, Numbered("b", 2))};
  const BatchReceipt receipt{42, {7}};
  for (int attempt = 0; attempt < 2; ++attempt) {
    const auto results = engine->BatchUpsert(records, receipt);
    REQUIRE(results.size() == 1);
    INFO("attempt " << attempt);
    CHECK_FALSE(results[0].ok());
  }
  CHECK(db.Count("SELECT count(*) FROM import_receipts") == 0);
}

}  // namespace
}  // namespace idres::testing
