// Races of records (docs/design.md, "Records, judgements and the change feed":
// the locks still decide), each run with the locks on (the store must stay
// consistent every round) and off (some round must break it): see
// race_check.h.
#include <array>
#include <atomic>
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "engine/engine.h"
#include "tests/engine/engine_fixture.h"
#include "tests/engine/race_check.h"
#include "tests/engine/records_check.h"

namespace idres::testing {
namespace {

Record Named(const std::string& record_id,
             std::initializer_list<std::pair<const char*, std::string>> ids) {
  Record r = Rec(ids);
  r.source = "crm";
  r.record_id = record_id;
  return r;
}

std::string Pair(int i) { return std::to_string(i / 2); }

// engine.DeleteRecord as RaceUpsert does upserts: with the locks off a
// failure is what the round checks afterwards.
void RaceDelete(Engine& engine, const std::string& record_id, bool locks) {
  try {
    engine.DeleteRecord("crm", record_id);
  } catch (const EngineError&) {
    if (locks) throw;
  }
}

TEST_CASE("race: a delete and a replace of the same record", "[pg][race][records]") {
  Race race;
  race.threads = 8;  // four pairs, each deleting and replacing one record
  race.setup = [](const TestDatabase& db, Engine&) {
    auto setup = MakeEngine(db, 1);
    for (int p = 0; p < 4; ++p) {
      const std::string n = std::to_string(p);
      setup->Upsert(Named("r1-" + n, {{"email", "old" + n + "@x.org"}}));
      setup->Upsert(Named("r2-" + n, {{"email", "old" + n + "@x.org"}, {"cookie", "ck-" + n}}));
    }
  };
  race.work = [](Engine& engine, int i, bool locks) {
    if (i % 2 == 0) {
      RaceDelete(engine, "r1-" + Pair(i), locks);
    } else {
      RaceUpsert(engine,
                 Named("r1-" + Pair(i),
                       {{"cookie", "ck-" + Pair(i)}, {"email", "new" + Pair(i) + "@x.org"}}),
                 locks);
    }
  };
  race.violation = [](const TestDatabase& db, Engine&) { return StoreInconsistency(db); };
  CheckRace(race);
}

// The delete moves a value out of the person; the upsert reaches the person
// through that value. They share no record, only the value's key.
TEST_CASE("race: a delete and an upsert reaching the person through the value it takes away",
          "[pg][race][records]") {
  Race race;
  race.threads = 8;
  race.setup = [](const TestDatabase& db, Engine&) {
    auto setup = MakeEngine(db, 1);
    for (int p = 0; p < 4; ++p) {
      const std::string n = std::to_string(p);
      setup->Upsert(Named("keep-" + n, {{"email", "anna" + n + "@x.org"}}));
      setup->Upsert(
          Named("gone-" + n, {{"email", "anna" + n + "@x.org"}, {"phone", "+49170123456" + n}}));
    }
  };
  race.work = [](Engine& engine, int i, bool locks) {
    if (i % 2 == 0) {
      RaceDelete(engine, "gone-" + Pair(i), locks);
    } else {
      RaceUpsert(engine,
                 Named("new-" + Pair(i),
                       {{"phone", "+49170123456" + Pair(i)}, {"cookie", "ck-" + Pair(i)}}),
                 locks);
    }
  };
  race.violation = [](const TestDatabase& db, Engine&) { return StoreInconsistency(db); };
  CheckRace(race);
}

// A steward keeps two persons apart while a record bridging them arrives:
// either the bridge merged them first (then the judgement is refused: they
// are one person) or the judgement holds and they stay two.
TEST_CASE("race: a never-match and a record bridging the two persons", "[pg][race][records]") {
  Race race;
  race.threads = 8;  // four pairs: a judgement and a bridge each
  auto judged = std::make_shared<std::array<std::atomic<bool>, 4>>();
  auto ids = std::make_shared<std::array<std::pair<std::int64_t, std::int64_t>, 4>>();
  race.setup = [judged, ids](const TestDatabase& db, Engine&) {
    auto setup = MakeEngine(db, 1);
    for (int p = 0; p < 4; ++p) {
      const std::string n = std::to_string(p);
      (*judged)[p] = false;
      (*ids)[p] = {setup->Upsert(Rec({{"email", "anna" + n + "@x.org"}})).person_id,
                   setup->Upsert(Rec({{"phone", "+49170123456" + n}})).person_id};
    }
  };
  race.work = [judged, ids](Engine& engine, int i, bool locks) {
    const int p = i / 2;
    if (i % 2 == 0) {
      try {
        (*judged)[p] = engine.NeverMatch((*ids)[p].first, (*ids)[p].second) == JudgeResult::kDone;
      } catch (const EngineError&) {
        if (locks) throw;
      }
    } else {
      const std::string n = std::to_string(p);
      RaceUpsert(engine, Rec({{"email", "anna" + n + "@x.org"}, {"phone", "+49170123456" + n}}),
                 locks);
    }
  };
  race.violation = [judged, ids](const TestDatabase& db, Engine&) -> std::string {
    for (int p = 0; p < 4; ++p) {
      const auto [a, b] = (*ids)[p];
      const bool one = db.Count("SELECT count(*) FROM merges WHERE absorbed_id IN (" +
                                std::to_string(a) + ", " + std::to_string(b) + ")") > 0;
      if ((*judged)[p] && one) {
        return "pair " + std::to_string(p) + ": judged never, and merged all the same";
      }
    }
    return "";
  };
  CheckRace(race);
}

// A steward splits a person while a record reaches it through a value the
// split moves to the new part.
TEST_CASE("race: a split and an upsert reaching the person through a value that moves",
          "[pg][race][records]") {
  Race race;
  race.threads = 8;
  auto ids = std::make_shared<std::array<std::int64_t, 4>>();
  race.setup = [ids](const TestDatabase& db, Engine&) {
    auto setup = MakeEngine(db, 1);
    for (int p = 0; p < 4; ++p) {
      const std::string n = std::to_string(p);
      (*ids)[p] = setup->Upsert(Named("a-" + n, {{"email", "anna" + n + "@x.org"}})).person_id;
      setup->Upsert(Named("b-" + n, {{"email", "anna" + n + "@x.org"}, {"cookie", "ck-" + n}}));
      setup->Upsert(Named("c-" + n, {{"cookie", "ck-" + n}, {"phone", "+49170123456" + n}}));
    }
  };
  race.work = [ids](Engine& engine, int i, bool locks) {
    const std::string n = Pair(i);
    if (i % 2 == 0) {
      try {
        engine.SplitPerson((*ids)[i / 2],
                           {{{"crm", "a-" + n}, {"crm", "b-" + n}}, {{"crm", "c-" + n}}});
      } catch (const EngineError&) {
        if (locks) throw;
      }
    } else {
      RaceUpsert(engine, Named("u-" + n, {{"phone", "+49170123456" + n}, {"device_id", "d-" + n}}),
                 locks);
    }
  };
  race.violation = [](const TestDatabase& db, Engine&) { return StoreInconsistency(db); };
  CheckRace(race);
}

// An erasure while a record reaches the person through one of its values:
// either the record came first (and is erased with the person) or it finds
// nobody and makes a new person; nothing of it stays with the erased id.
TEST_CASE("race: an erasure and an upsert reaching the person", "[pg][race][records]") {
  Race race;
  race.threads = 8;
  race.drop_foreign_keys_unlocked = true;
  auto ids = std::make_shared<std::array<std::int64_t, 4>>();
  auto erased = std::make_shared<std::array<std::atomic<bool>, 4>>();
  race.setup = [ids, erased](const TestDatabase& db, Engine&) {
    auto setup = MakeEngine(db, 1);
    for (int p = 0; p < 4; ++p) {
      (*erased)[p] = false;
      (*ids)[p] = setup
                      ->Upsert(Named("a-" + std::to_string(p),
                                     {{"email", "anna" + std::to_string(p) + "@x.org"}}))
                      .person_id;
    }
  };
  race.work = [ids, erased](Engine& engine, int i, bool locks) {
    const std::string n = Pair(i);
    if (i % 2 == 0) {
      try {
        (*erased)[i / 2] = engine.ForgetPerson((*ids)[i / 2]).has_value();
      } catch (const EngineError&) {
        if (locks) throw;
      }
    } else {
      RaceUpsert(engine, Rec({{"email", "anna" + n + "@x.org"}, {"cookie", "ck-" + n}}), locks);
    }
  };
  race.violation = [ids, erased](const TestDatabase& db, Engine&) -> std::string {
    for (int p = 0; p < 4; ++p) {
      if (!(*erased)[p]) continue;
      const std::string id = std::to_string((*ids)[p]);
      const auto left =
          db.Count("SELECT (SELECT count(*) FROM identifiers WHERE person_id = " + id +
                   ") + (SELECT count(*) FROM records WHERE person_id = " + id + ")");
      if (left > 0)
        return "person " + id + " was erased, and " + std::to_string(left) + " rows of it stay";
    }
    return "";
  };
  CheckRace(race);
}

}  // namespace
}  // namespace idres::testing
