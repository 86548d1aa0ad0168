// The races the lock protocol must win, each run with the locks on (must hold) and off (must
// break in some round): see race_check.h.
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "tests/engine/engine_fixture.h"
#include "tests/engine/race_check.h"
#include "tests/support/race.h"

namespace idres::testing {
namespace {

std::string Expect(const char* what, std::int64_t expected, std::int64_t actual) {
  if (expected == actual) return "";
  return std::string(what) + ": expected " + std::to_string(expected) + ", found " +
         std::to_string(actual);
}

std::string Phone(int i) {
  const std::string digits = std::to_string(1000000 + i);
  return "+4917" + digits.substr(1) + "00";
}

// One person holding `phones` phones and `keys` trait keys.
std::string OnePersonWith(const TestDatabase& db, int phones, int keys) {
  if (auto e = Expect("persons", 1, PersonCount(db)); !e.empty()) return e;
  if (auto e = Expect("phones", phones,
                      db.Count("SELECT count(*) FROM identifiers WHERE type = 'phone'"));
      !e.empty()) {
    return e;
  }
  return Expect("trait keys kept", keys,
                db.Count("SELECT count(*) FROM persons, jsonb_object_keys(traits)"));
}

TEST_CASE("race: two identical upserts at once give one person", "[pg][race]") {
  Race race;
  race.threads = 8;  // four pairs, each pair racing with the same record
  race.record = [](int i) { return Rec({{"email", "pair" + std::to_string(i / 2) + "@x.org"}}); };
  race.violation = [](const TestDatabase& db, Engine&) {
    return Expect("persons", 4, PersonCount(db));
  };
  CheckRace(race);
}

// Different phones and cookies are no evidence against (a person has
// several); a shared email with nothing against it is a match.
TEST_CASE("race: same email, different other attributes: one person, all merged", "[pg][race]") {
  Race race;
  race.record = [](int i) {
    return Rec(
        {{"email", "anna@x.org"}, {"phone", Phone(i)}, {"cookie", "ck-" + std::to_string(i)}},
        {{"k" + std::to_string(i), double(i)}});
  };
  race.violation = [](const TestDatabase& db, Engine&) { return OnePersonWith(db, 8, 8); };
  CheckRace(race);
}

TEST_CASE("race: matched by cookie, different emails: one person holding all", "[pg][race]") {
  Race race;
  race.record = [](int i) {
    return Rec({{"cookie", "ck-shared"}, {"email", "e" + std::to_string(i) + "@x.org"}});
  };
  race.violation = [](const TestDatabase& db, Engine&) {
    if (auto e = Expect("persons", 1, PersonCount(db)); !e.empty()) return e;
    return Expect("emails", 8, db.Count("SELECT count(*) FROM identifiers WHERE type = 'email'"));
  };
  CheckRace(race);
}

TEST_CASE("race: 32 identical upserts: exactly one person, no duplicate identifier", "[pg][race]") {
  Race race;
  race.threads = 32;
  race.record = [](int) { return Rec({{"email", "same@x.org"}, {"cookie", "same"}}); };
  race.violation = [](const TestDatabase& db, Engine&) {
    if (auto e = Expect("persons", 1, PersonCount(db)); !e.empty()) return e;
    return Expect("duplicate identifiers", 0, DuplicateIdentifiers(db));
  };
  CheckRace(race);
}

TEST_CASE("locks off but the unique index present: identical upserts still give one person",
          "[pg][race]") {
  // The constraint alone defends exclusive identifiers (via the 23505 retry).
  for (int round = 0; round < 3; ++round) {
    TestDatabase db;
    auto owned = MakeEngine(db, 16, /*skip_locks=*/true);
    Engine& engine = *owned;
    RunConcurrently(16, [&](int) { engine.Upsert(Rec({{"customer_id", "same"}})); });
    REQUIRE(PersonCount(db) == 1);
  }
}

// The seed's lost update: one person reached through the email by some
// requests and through the cookie by others, each adding its own phone and
// trait key. Traits are written whole on top of the re-read, so without the
// person lock a concurrent key is lost.
Race LostUpdateRace() {
  Race race;
  race.drop_unique_index_unlocked = false;  // no duplicate person involved
  race.setup = [](const TestDatabase&, Engine& engine) {
    engine.Upsert(Rec({{"email", "anna@x.org"}, {"cookie", "ck-anna"}}));
  };
  race.record = [](int i) {
    const std::pair<const char*, std::string> via =
        i % 2 ? std::pair{"cookie", std::string("ck-anna")}
              : std::pair{"email", std::string("anna@x.org")};
    return Rec({via, {"phone", Phone(i)}}, {{"k" + std::to_string(i), true}});
  };
  race.violation = [](const TestDatabase& db, Engine&) { return OnePersonWith(db, 8, 8); };
  return race;
}

TEST_CASE("race: the same person through email and cookie: no update lost", "[pg][race]") {
  CheckRace(LostUpdateRace());
}

// Half the writers reach the person through its email (a strong value: its
// row is locked before it is read), half through its name and birth date
// alone (a blocking key: read unlocked, then locked and re-read before it is
// written, docs/design.md step 5). They share no key, so only the row lock
// and the re-read keep each write on top of the others.
TEST_CASE("race: one person through its email and through a blocking key: no update lost",
          "[pg][race]") {
  Race race;
  race.drop_unique_index_unlocked = false;  // no duplicate person involved
  race.setup = [](const TestDatabase&, Engine& engine) {
    engine.Upsert(
        Rec({{"email", "jon@x.org"}, {"name", "Jon Smyth"}, {"birth_date", "1978-04-01"}}));
  };
  race.record = [](int i) {
    if (i % 2)
      return Rec({{"email", "jon@x.org"}, {"phone", Phone(i)}}, {{"k" + std::to_string(i), true}});
    return Rec({{"name", "John Smith"}, {"birth_date", "1978-04-01"}, {"phone", Phone(i)}},
               {{"k" + std::to_string(i), true}});
  };
  race.violation = [](const TestDatabase& db, Engine&) { return OnePersonWith(db, 8, 8); };
  CheckRace(race);
}

TEST_CASE("race: a match reached only by summing weak attributes: one person", "[pg][race]") {
  Race race;
  race.drop_unique_index_unlocked = false;  // only weak identifiers: no unique index involved
  race.record = [](int i) {
    return Rec({{"name", "Anna Meier"}, {"birth_date", "1980-01-01"}, {"postal_code", "10115"}},
               {{"k" + std::to_string(i), 1.0}});
  };
  race.violation = [](const TestDatabase& db, Engine&) {
    return Expect("persons", 1, PersonCount(db));
  };
  CheckRace(race);
}

TEST_CASE("race: one phone in three spellings at once: one person", "[pg][race]") {
  Race race;
  race.threads = 9;
  race.record = [](int i) {
    static const char* kSpellings[] = {"+49 170 1234567", "0170 1234567", "0049-170-1234567"};
    return Rec({{"phone", kSpellings[i % 3]}}, {}, "DE");
  };
  race.violation = [](const TestDatabase& db, Engine&) {
    if (auto e = Expect("persons", 1, PersonCount(db)); !e.empty()) return e;
    return Expect("holders of +491701234567", 1,
                  db.Count("SELECT count(*) FROM identifiers WHERE value = '+491701234567'"));
  };
  CheckRace(race);
}

// `idres serve` applies single upserts that queue for a connection in
// shared transactions, groups (Engine::Submit, engine/detail/upsert_queue.h),
// so under load its races are between whole groups: each thread's batch holds the same four
// persons, reached through the same emails, each record adding a phone and a trait key.
TEST_CASE("race: batches over the same persons: one person each, nothing lost", "[pg][race]") {
  constexpr int kPersons = 4;
  Race race;
  race.work = [](Engine& engine, int i, bool locks) {
    std::vector<Record> batch;
    for (int k = 0; k < kPersons; ++k) {
      batch.push_back(
          Rec({{"email", "p" + std::to_string(k) + "@x.org"}, {"phone", Phone(i * kPersons + k)}},
              {{"k" + std::to_string(i), true}}));
    }
    try {
      for (const UpsertResult& r : engine.BatchUpsert(batch)) {
        if (!r.ok()) throw std::runtime_error("record rejected: " + *r.error);
      }
    } catch (const EngineError&) {
      if (locks) throw;
    }
  };
  race.violation = [&race](const TestDatabase& db, Engine&) {
    if (auto e = Expect("persons", kPersons, PersonCount(db)); !e.empty()) return e;
    if (auto e = Expect("phones", race.threads * kPersons,
                        db.Count("SELECT count(*) FROM identifiers WHERE type = 'phone'"));
        !e.empty()) {
      return e;
    }
    return Expect("trait keys kept", race.threads * kPersons,
                  db.Count("SELECT count(*) FROM persons, jsonb_object_keys(traits)"));
  };
  CheckRace(race);
}

TEST_CASE("race: database default REPEATABLE READ: the same results", "[pg][race]") {
  SECTION("identical upserts") {
    Race race;
    race.default_isolation = "repeatable read";
    race.record = [](int) { return Rec({{"email", "rr@x.org"}}); };
    race.violation = [](const TestDatabase& db, Engine&) {
      return Expect("persons", 1, PersonCount(db));
    };
    CheckRace(race);
  }
  SECTION("lost update") {
    Race race = LostUpdateRace();
    race.default_isolation = "repeatable read";
    CheckRace(race);
  }
}

}  // namespace
}  // namespace idres::testing
