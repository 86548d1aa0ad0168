// CheckRace: runs one race with the locks on (the invariant must hold every
// round) and then with the locks switched off (at least one round must break
// it). A race test that also passes without the protection proves nothing.
//
// Every round uses a fresh database and an engine whose pool has one
// connection per racing thread, so the racers really run at once (a smaller
// pool would queue them and hide the race: the seed's lesson).
#pragma once

#include <functional>
#include <string>

#include "engine/engine.h"
#include "tests/support/test_db.h"

namespace idres::testing {

struct Race {
  int threads = 8;
  int locked_rounds = 2;
  int unlocked_rounds = 10;
  // Without locks the unique index on (type, value) still stops duplicates
  // of strong identifiers (through the 23505 retry); races about duplicate
  // persons drop it in the unlocked rounds to show what the locks alone do.
  bool drop_unique_index_unlocked = true;
  // The foreign keys to persons stop a write to a person erased meanwhile;
  // races about erasure drop them in the unlocked rounds likewise.
  bool drop_foreign_keys_unlocked = false;
  // default_transaction_isolation for the database, e.g. "repeatable read".
  std::string default_isolation;
  std::function<void(EngineOptions&)> options;              // optional
  std::function<void(const TestDatabase&, Engine&)> setup;  // optional, before the race
  std::function<Record(int)> record;                        // the record of thread i
  // Instead of `record`: all that thread i does (call Upsert through
  // RaceUpsert so the unlocked rounds tolerate failures the same way).
  std::function<void(Engine&, int, bool locks)> work;
  // What broke after the race ("" when the invariant holds).
  std::function<std::string(const TestDatabase&, Engine&)> violation;
};

void CheckRace(const Race& race);

// engine.Upsert(record): a rejected record throws; with `locks` off an
// EngineError is swallowed (concurrent merges without locks can fail
// outright; the state left behind is what the round checks).
void RaceUpsert(Engine& engine, const Record& record, bool locks);

}  // namespace idres::testing
