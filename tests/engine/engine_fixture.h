// Helpers for the engine's database tests: engines on a TestDatabase,
// records from literals, and what the store holds.
#pragma once

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <future>
#include <initializer_list>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "engine/testing.h"
#include "tests/support/test_db.h"

namespace idres::testing {

// Options for an engine on `db` with `pool_size` connections.
EngineOptions OptionsFor(const TestDatabase& db, int pool_size);

// An engine on `db`; with `skip_locks`, the naive one (engine/testing.h).
std::unique_ptr<Engine> MakeEngine(const TestDatabase& db, int pool_size, bool skip_locks = false);

Record Rec(std::initializer_list<std::pair<const char*, std::string>> ids, Traits traits = {},
           std::string region = {});

// Live persons in the store.
std::int64_t PersonCount(const TestDatabase& db);

// (type, value) pairs stored more than once, over all persons.
std::int64_t DuplicateIdentifiers(const TestDatabase& db);

// The identifiers of person `id` as "type:value", sorted.
std::vector<std::string> IdentifiersOf(const TestDatabase& db, std::int64_t id);

// The one person holding (type, value), or 0 when none or several do.
std::int64_t PersonHolding(const TestDatabase& db, const std::string& type,
                           const std::string& value);

// Whether some other session of `db` waits on a lock right now.
bool SomeoneWaitsOnALock(const TestDatabase& db);

// Blocks until some other session of `db` waits on a lock; fails the test
// when `call` ends first, rather than waiting for ever.
template <typename T>
void AwaitLockWaiter(const TestDatabase& db, const std::future<T>& call) {
  while (!SomeoneWaitsOnALock(db)) {
    if (call.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
      FAIL("the call ended without waiting on a lock");
    }
    std::this_thread::yield();
  }
}

}  // namespace idres::testing
