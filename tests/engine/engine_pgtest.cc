#include "engine/engine.h"

#include <catch2/catch.hpp>
#include <span>
#include <string>
#include <thread>
#include <utility>

#include "tests/engine/engine_fixture.h"

namespace idres::testing {
namespace {

TEST_CASE("upsert creates, updates, stays unchanged", "[pg][engine]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult a = engine->Upsert(Rec({{"email", "Anna@Example.com"}}, {{"plan", "free"}}));
  REQUIRE(a.ok());
  CHECK(a.outcome == Outcome::kCreated);
  CHECK(a.score == 0.0);

  const UpsertResult b = engine->Upsert(
      Rec({{"email", "anna@example.com"}, {"cookie", "ck1"}}, {{"plan", "pro"}, {"age", 41.5}}));
  CHECK(b.outcome == Outcome::kUpdated);
  CHECK(b.person_id == a.person_id);
  CHECK(b.score == Approx(Model::Defaults().Find("email")->levels.front().weight()));

  const UpsertResult c = engine->Upsert(Rec({{"cookie", "ck1"}}, {{"age", 41.5}}));
  CHECK(c.outcome == Outcome::kUnchanged);
  CHECK(c.person_id == a.person_id);

  const auto p = engine->GetPerson(a.person_id);
  REQUIRE(p);
  CHECK(p->identifiers ==
        std::vector<Identifier>{{"cookie", "ck1"}, {"email", "anna@example.com"}});
  CHECK(p->traits == Traits{{"plan", std::string("pro")}, {"age", 41.5}});
  CHECK_FALSE(p->redirected_from);
  // The time as stored, to the microsecond, formatted as PostgreSQL would.
  CHECK(FormatRfc3339(p->created_at) ==
        db.Rows("SELECT to_char(created_at AT TIME ZONE 'UTC', "
                "'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM persons WHERE id = " +
                std::to_string(a.person_id))[0][0]);
  CHECK(PersonCount(db) == 1);
}

TEST_CASE("bad identifiers are reported, a record without a valid one is rejected whole",
          "[pg][engine]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const UpsertResult r =
      engine->Upsert(Rec({{"email", "no-at-sign"}, {"phone", "abc"}, {"cookie", "ck"}}));
  REQUIRE(r.ok());
  CHECK(r.rejected.size() == 2);
  const UpsertResult bad = engine->Upsert(Rec({{"email", "nope"}, {"shoe_size", "44"}}));
  CHECK_FALSE(bad.ok());
  CHECK(bad.rejected.size() == 2);
  CHECK(PersonCount(db) == 1);

  Record many;
  for (int i = 0; i < 101; ++i) many.identifiers.push_back({"cookie", std::to_string(i)});
  CHECK_FALSE(engine->Upsert(many).ok());
  CHECK_FALSE(engine->Upsert(Rec({{"cookie", "x"}}, {{"n", std::nan("")}})).ok());
  CHECK_FALSE(engine->Upsert(Rec({{"cookie", "x"}}, {{"s", std::string("a\0b", 3)}})).ok());
  CHECK_FALSE(engine->Upsert(Rec({{"cookie", "x"}}, {{"s", std::string("\xff")}})).ok());
  CHECK(PersonCount(db) == 1);
}

TEST_CASE("traits keep their types, odd strings survive", "[pg][engine]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const Traits traits = {{"s", std::string("q\"uo\\te, {NULL}")},
                         {"n", 0.1},
                         {"big", 1e300},
                         {"neg", -3.0},
                         {"t", true},
                         {"f", false},
                         {"u", std::string("Grüße 日本")}};
  const auto r = engine->Upsert(Rec({{"cookie", "c"}}, traits));
  CHECK(engine->GetPerson(r.person_id)->traits == traits);
}

TEST_CASE("a bridging record merges into the oldest, old ids redirect", "[pg][engine]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const auto a = engine->Upsert(Rec({{"email", "a@x.org"}}, {{"k", std::string("a")}}));
  const auto b = engine->Upsert(Rec({{"phone", "+4917012345678"}}, {{"k", std::string("b")}}));
  const auto c = engine->Upsert(Rec({{"cookie", "c"}}));
  const auto m = engine->Upsert(Rec({{"email", "a@x.org"}, {"phone", "+4917012345678"}}));
  CHECK(m.outcome == Outcome::kMerged);
  CHECK(m.person_id == a.person_id);
  CHECK(m.merged_person_ids == std::vector<std::int64_t>{b.person_id});
  // b was updated last, so its value of k wins.
  CHECK(engine->GetPerson(a.person_id)->traits.at("k") == TraitValue(std::string("b")));
  // Merge again: the survivor of the first merge is absorbed by an older id?
  // No: a is oldest. Merge c into a; b's redirect must still reach a.
  const auto m2 = engine->Upsert(Rec({{"cookie", "c"}, {"email", "a@x.org"}}));
  CHECK(m2.person_id == a.person_id);
  const auto viaB = engine->GetPerson(b.person_id);
  REQUIRE(viaB);
  CHECK(viaB->id == a.person_id);
  CHECK(viaB->redirected_from == b.person_id);
  CHECK(engine->GetPerson(c.person_id)->id == a.person_id);
  CHECK_FALSE(engine->GetPerson(999999));
  CHECK(PersonCount(db) == 1);
  const StoreStats s = engine->Stats();
  CHECK(s.persons == 1);
  CHECK(s.merged_away == 2);
  CHECK(s.identifiers == 3);
  CHECK(s.records == db.Count("SELECT count(*) FROM records"));
  CHECK(s.records >= 4);
  CHECK(s.merges_today == 2);  // both merges were made today (UTC), seconds ago
  CHECK(s.splits_today == 0);
  CHECK(s.open_pairs == 0);
}

TEST_CASE("redirects are repointed when a survivor is absorbed later", "[pg][engine]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const auto a = engine->Upsert(Rec({{"email", "a@x.org"}}));
  const auto b = engine->Upsert(Rec({{"email", "b@x.org"}}));
  const auto c = engine->Upsert(Rec({{"email", "c@x.org"}}));
  engine->Upsert(Rec({{"email", "b@x.org"}, {"email", "c@x.org"}}));  // c -> b
  engine->Upsert(Rec({{"email", "a@x.org"}, {"email", "b@x.org"}}));  // b -> a
  CHECK(engine->GetPerson(c.person_id)->id == a.person_id);
  CHECK(db.Count("SELECT count(*) FROM merges WHERE survivor_id <> " +
                 std::to_string(a.person_id)) == 0);
  CHECK(IdentifiersOf(db, a.person_id) ==
        std::vector<std::string>{"email:a@x.org", "email:b@x.org", "email:c@x.org"});
}

TEST_CASE("weak attributes match through a blocking key, and not against another name",
          "[pg][engine]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const auto a = engine->Upsert(
      Rec({{"name", "Anna Meier"}, {"birth_date", "1980-01-01"}, {"postal_code", "10115"}}));
  const auto same = engine->Upsert(Rec({{"name", "anna meier"},
                                        {"birth_date", "1980-01-01"},
                                        {"postal_code", "10115"},
                                        {"email", "anna@x.org"}}));
  CHECK(same.person_id == a.person_id);
  CHECK(same.score >= Model::Defaults().threshold);
  const auto other = engine->Upsert(
      Rec({{"name", "Peter Novak"}, {"birth_date", "1980-01-01"}, {"postal_code", "10115"}}));
  CHECK(other.person_id != a.person_id);
  CHECK(PersonCount(db) == 2);
}

TEST_CASE("a weak unique value held by another person is rejected, not moved", "[pg][engine]") {
  TestDatabase db;
  EngineOptions o = OptionsFor(db, 1);
  o.normalizer.kinds["loyalty_card"] = NormalizerKind::kOpaque;
  // Exclusive, but its agreement alone (log2(0.9 / 0.01) = 6.5) is no match.
  TypeModel& card = o.model.types["loyalty_card"];
  card.levels = {{"exact", 0.9, 0.01}, {"different", 0.5, 0.5}};
  card.exclusive = true;
  Engine engine(o);
  const auto a = engine.Upsert(Rec({{"loyalty_card", "L1"}, {"email", "anna@x.org"}}));
  const auto b = engine.Upsert(Rec({{"loyalty_card", "L1"}, {"email", "zed@y.org"}}));
  CHECK(b.person_id != a.person_id);
  REQUIRE(b.rejected.size() == 1);
  CHECK(b.rejected[0].reason == "belongs to another person");
  CHECK(PersonHolding(db, "loyalty_card", "L1") == a.person_id);
}

TEST_CASE("lookup normalizes first", "[pg][engine]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const auto a = engine->Upsert(Rec({{"phone", "+49 170 1234567"}}));
  auto found = engine->Lookup({"phone", "0170 1234567"}, "DE");
  REQUIRE(std::holds_alternative<std::vector<Person>>(found));
  REQUIRE(std::get<std::vector<Person>>(found).size() == 1);
  CHECK(std::get<std::vector<Person>>(found)[0].id == a.person_id);
  CHECK(std::get<std::vector<Person>>(engine->Lookup({"email", "x@y.org"})).empty());
  CHECK(std::holds_alternative<Rejection>(engine->Lookup({"email", "nope"})));
}

TEST_CASE("an unreachable database is UnavailableError", "[pg][engine]") {
  EngineOptions o;
  o.database_url = "postgresql://postgres@127.0.0.1:1/none";
  CHECK_THROWS_AS(Engine(o), UnavailableError);
}

TEST_CASE("a connection killed inside a transaction is UnavailableError, then replaced",
          "[pg][engine]") {
  TestDatabase db;
  EngineOptions o = OptionsFor(db, 1);
  bool kill = true;
  EngineSeams seams;
  seams.after_key_locks = [&](std::span<const std::int64_t>) {
    if (!std::exchange(kill, false)) return;
    const std::string others =
        " FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()";
    db.Exec("SELECT pg_terminate_backend(pid)" + others);
    while (db.Count("SELECT count(*)" + others) > 0) std::this_thread::yield();
  };
  auto owned = EngineTesting::Make(o, seams);
  Engine& engine = *owned;
  // Killed between its first message and its next: nothing was written.
  CHECK_THROWS_AS(engine.Upsert(Rec({{"cookie", "a"}})), UnavailableError);
  CHECK(engine.ConnectionsInUse() == 0);
  CHECK(PersonCount(db) == 0);
  CHECK(engine.Upsert(Rec({{"cookie", "b"}})).outcome == Outcome::kCreated);
}

}  // namespace
}  // namespace idres::testing
