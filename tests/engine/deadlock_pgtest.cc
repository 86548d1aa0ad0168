// A deadlock PostgreSQL detects (40P01) is a transient failure: the engine
// rolls back, retries, and the caller sees the upsert succeed. libpqxx 6
// reports class 40 outside its sql_error hierarchy, which once made this an
// internal error.
#include <algorithm>
#include <catch2/catch.hpp>
#include <future>
#include <memory>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "engine/engine.h"
#include "engine/observer.h"
#include "tests/engine/engine_fixture.h"

namespace idres::testing {
namespace {

class RetryLog : public EngineObserver {
 public:
  void OnRetry(std::string_view reason) override EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    reasons_.emplace_back(reason);
  }
  std::vector<std::string> reasons() const EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    return reasons_;
  }

 private:
  mutable Mutex mu_;
  std::vector<std::string> reasons_ GUARDED_BY(mu_);
};

TEST_CASE("a deadlock the database breaks is retried, and the upsert succeeds", "[pg][engine]") {
  TestDatabase db;
  // PostgreSQL looks for a cycle once, deadlock_timeout after a session
  // begins to wait: the engine's sessions wait 5 s before looking, time
  // enough for the other writer to close the cycle however slow the machine.
  db.Exec("ALTER DATABASE " + db.name() + " SET deadlock_timeout = '5s'");
  auto retries = std::make_shared<RetryLog>();
  EngineOptions o = OptionsFor(db, 1);
  o.observer = retries;
  Engine engine(o);
  const std::int64_t anna = engine.Upsert(Rec({{"email", "anna@example.com"}})).person_id;
  const std::int64_t phone = engine.Upsert(Rec({{"phone", "+4915112345678"}})).person_id;
  REQUIRE(anna < phone);

  // Another writer locks the persons in the opposite order: the newer first.
  pqxx::connection other(db.url());
  pqxx::nontransaction w(other);
  w.exec("BEGIN");
  w.exec("SET LOCAL deadlock_timeout = '60s'");  // the engine's session detects the cycle
  w.exec("SELECT 1 FROM persons WHERE id = " + std::to_string(phone) + " FOR UPDATE");

  // The bridge locks `anna`, then waits for `phone`.
  auto bridge = std::async(std::launch::async, [&] {
    return engine.Upsert(Rec({{"email", "anna@example.com"}, {"phone", "+4915112345678"}}));
  });
  AwaitLockWaiter(db, bridge);
  // Closes the cycle; granted once the database aborts the bridge.
  w.exec("SELECT 1 FROM persons WHERE id = " + std::to_string(anna) + " FOR UPDATE");
  w.exec("COMMIT");

  const UpsertResult r = bridge.get();  // threw InternalError before the fix
  CHECK(r.outcome == Outcome::kMerged);
  CHECK(r.person_id == anna);
  CHECK(PersonCount(db) == 1);
  // Retried for deadlocks only. Usually once; on a loaded machine the retry
  // can lock `anna` before the other writer's granted wait takes it, and
  // closes the same cycle again.
  const std::vector<std::string> reasons = retries->reasons();
  CHECK_FALSE(reasons.empty());
  CHECK(std::count(reasons.begin(), reasons.end(), "deadlock") == std::ssize(reasons));
}

}  // namespace
}  // namespace idres::testing
