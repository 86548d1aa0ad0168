#include "tests/engine/race_check.h"

#include <catch2/catch.hpp>
#include <memory>
#include <stdexcept>
#include <thread>

#include "tests/engine/engine_fixture.h"
#include "tests/support/race.h"

namespace idres::testing {
namespace {

constexpr auto kRacePause = std::chrono::milliseconds(10);

std::string RunRound(const Race& race, bool locks) {
  TestDatabase db;
  if (!race.default_isolation.empty()) db.SetDefaultIsolation(race.default_isolation);
  if (!locks && race.drop_unique_index_unlocked) db.Exec("DROP INDEX identifiers_unique_value");
  if (!locks && race.drop_foreign_keys_unlocked) {
    db.Exec(
        "ALTER TABLE identifiers DROP CONSTRAINT identifiers_person_id_fkey;"
        " ALTER TABLE records DROP CONSTRAINT records_person_id_fkey;"
        " ALTER TABLE match_keys DROP CONSTRAINT match_keys_person_id_fkey");
  }
  EngineOptions o = OptionsFor(db, race.threads);
  EngineSeams seams;
  seams.skip_locks = !locks;
  // Between BEGIN (and the key locks, if on) and the candidate read the
  // racers are lined up, so that on a busy machine they still overlap
  // instead of running one after the other. Without locks they meet at a
  // rendezvous: every racer reads the same stale state before any writes,
  // so a missing protection shows in nearly every round instead of by luck
  // of scheduling (a 10 ms pause alone once let 30 unprotected rounds pass
  // on a loaded CI machine). With locks a rendezvous would deadlock (the
  // racers wait on each other's keys), so they pause instead; the pause
  // sits inside the locked section and lengthens the queue on shared keys.
  auto meet = std::make_shared<Rendezvous>(race.threads);
  seams.after_key_locks = [locks, meet](std::span<const std::int64_t>) {
    if (locks) {
      std::this_thread::sleep_for(kRacePause);
    } else {
      meet->Arrive();
    }
  };
  if (race.options) race.options(o);
  auto owned = EngineTesting::Make(o, seams);
  Engine& engine = *owned;
  REQUIRE(engine.options().pool_size >= race.threads);
  if (race.setup) race.setup(db, engine);
  RunConcurrently(race.threads, [&](int i) {
    if (race.work) {
      race.work(engine, i, locks);
    } else {
      RaceUpsert(engine, race.record(i), locks);
    }
  });
  return race.violation(db, engine);
}

}  // namespace

void RaceUpsert(Engine& engine, const Record& record, bool locks) {
  try {
    const UpsertResult r = engine.Upsert(record);
    if (!r.ok()) throw std::runtime_error("record rejected: " + *r.error);
  } catch (const EngineError&) {
    if (locks) throw;
  }
}

void CheckRace(const Race& race) {
  for (int round = 0; round < race.locked_rounds; ++round) {
    const std::string broken = RunRound(race, true);
    INFO("locks on, round " << round << ": " << broken);
    REQUIRE(broken.empty());
  }
  std::string first_violation;
  int round = 0;
  for (; round < race.unlocked_rounds && first_violation.empty(); ++round) {
    first_violation = RunRound(race, false);
  }
  INFO("locks off: no violation in " << race.unlocked_rounds << " rounds");
  REQUIRE_FALSE(first_violation.empty());
  WARN("locks off: violated in round " << round << ": " << first_violation);
}

}  // namespace idres::testing
