// A caller's Deadline (engine/deadline.h): a call that runs out of time
// throws DeadlineError, stores nothing of its unfinished transaction, and
// leaves the engine as it found it. Every wait here is one the deadline must
// cut short: were it ignored, the lock timeout (30 s) would end it with a
// BusyError instead, or the call would succeed.
#include "engine/deadline.h"

#include <catch2/catch.hpp>
#include <future>
#include <pqxx/pqxx>
#include <thread>

#include "engine/engine.h"
#include "normalize/lock_key.h"
#include "tests/engine/engine_fixture.h"
#include "tests/support/stall_proxy.h"

namespace idres::testing {
namespace {

using std::chrono::milliseconds;

// An engine whose lock waits outlast every deadline in this file.
std::unique_ptr<Engine> Patient(const TestDatabase& db, int pool_size) {
  EngineOptions o = OptionsFor(db, pool_size);
  o.lock_timeout = milliseconds(30000);
  return std::make_unique<Engine>(o);
}

// An open transaction on its own connection, holding what `sql` locks.
class Holder {
 public:
  Holder(const TestDatabase& db, const std::string& sql) : conn_(db.url()), tx_(conn_) {
    tx_.exec("BEGIN");
    tx_.exec(sql);
  }
  ~Holder() { tx_.exec("ROLLBACK"); }

 private:
  pqxx::connection conn_;
  pqxx::nontransaction tx_;
};

std::string HoldKey(const char* type, const char* value) {
  return "SELECT pg_advisory_xact_lock(" + std::to_string(LockKey(type, value)) + ")";
}

TEST_CASE("Deadline: unset never passes, Remaining rounds up and stops at zero", "[engine]") {
  CHECK_FALSE(Deadline{}.IsSet());
  CHECK_FALSE(Deadline{}.Passed());
  CHECK_FALSE(Deadline{}.Remaining());
  const Deadline later = Deadline::After(milliseconds(60000));
  CHECK_FALSE(later.Passed());
  CHECK(*later.Remaining() > milliseconds(59000));
  CHECK(*later.Remaining() <= milliseconds(60000));
  const Deadline past = Deadline::At(Deadline::Clock::now() - milliseconds(5));
  CHECK(past.Passed());
  CHECK(*past.Remaining() == milliseconds(0));
}

TEST_CASE("a deadline that has passed starts no transaction", "[pg][engine]") {
  TestDatabase db;
  auto engine = Patient(db, 1);
  CHECK_THROWS_AS(engine->Upsert(Rec({{"email", "a@x.org"}}), Deadline::After(milliseconds(0))),
                  DeadlineError);
  CHECK_THROWS_AS(engine->GetPerson(1, Deadline::After(milliseconds(0))), DeadlineError);
  CHECK(PersonCount(db) == 0);
}

TEST_CASE("a held key ends an upsert at its deadline, not at the lock timeout", "[pg][engine]") {
  TestDatabase db;
  auto engine = Patient(db, 1);
  {
    Holder holder(db, HoldKey("email", "a@x.org"));
    CHECK_THROWS_AS(engine->Upsert(Rec({{"email", "a@x.org"}}), Deadline::After(milliseconds(300))),
                    DeadlineError);
    CHECK(PersonCount(db) == 0);
  }
  // The same connection (pool of 1) is clean for the next call.
  CHECK(engine->Upsert(Rec({{"email", "a@x.org"}})).outcome == Outcome::kCreated);
  CHECK(engine->ConnectionsInUse() == 0);
}

TEST_CASE("a locked person ends an update at its deadline and adds nothing", "[pg][engine]") {
  TestDatabase db;
  auto engine = Patient(db, 1);
  const auto id = engine->Upsert(Rec({{"email", "a@x.org"}})).person_id;
  {
    // No advisory key: the upsert gets past step 3 and waits in step 5.
    Holder holder(db, "SELECT 1 FROM persons WHERE id = " + std::to_string(id) + " FOR UPDATE");
    CHECK_THROWS_AS(engine->Upsert(Rec({{"email", "a@x.org"}, {"phone", "+4917011111111"}}),
                                   Deadline::After(milliseconds(300))),
                    DeadlineError);
  }
  CHECK(IdentifiersOf(db, id) == std::vector<std::string>{"email:a@x.org"});
  CHECK(engine->Upsert(Rec({{"email", "a@x.org"}, {"phone", "+4917011111111"}})).outcome ==
        Outcome::kUpdated);
}

TEST_CASE("a deadline that passes between round trips stops the next one", "[pg][engine]") {
  TestDatabase db;
  const Deadline deadline = Deadline::After(milliseconds(200));
  EngineOptions o = OptionsFor(db, 1);
  // Between the key locks (first round trip) and the insert (second).
  EngineSeams seams;
  seams.after_key_locks = [&](std::span<const std::int64_t>) {
    while (!deadline.Passed()) std::this_thread::sleep_for(milliseconds(5));
  };
  auto owned = EngineTesting::Make(o, seams);
  Engine& engine = *owned;
  CHECK_THROWS_AS(engine.Upsert(Rec({{"email", "a@x.org"}}), deadline), DeadlineError);
  CHECK(PersonCount(db) == 0);
  CHECK(engine.ConnectionsInUse() == 0);
}

TEST_CASE("a deadline longer than PostgreSQL's longest timeout is that long", "[pg][engine]") {
  TestDatabase db;
  auto engine = Patient(db, 1);
  // 9,999,999,999 ms, the most Connect-Timeout-Ms can say, is past INT_MAX.
  const auto far = Deadline::After(milliseconds(9'999'999'999));
  CHECK(engine->Upsert(Rec({{"email", "a@x.org"}}), far).outcome == Outcome::kCreated);
  CHECK(engine->GetPerson(1, far).has_value());
}

TEST_CASE("a lock timeout shorter than the deadline is still a busy error", "[pg][engine]") {
  TestDatabase db;
  EngineOptions o = OptionsFor(db, 1);
  o.lock_timeout = milliseconds(200);
  Engine engine(o);
  Holder holder(db, HoldKey("email", "a@x.org"));
  CHECK_THROWS_AS(engine.Upsert(Rec({{"email", "a@x.org"}}), Deadline::After(milliseconds(60000))),
                  BusyError);
}

TEST_CASE("a caller waiting for a connection gives up at its deadline", "[pg][engine]") {
  TestDatabase db;
  EngineOptions o = OptionsFor(db, 1);
  std::promise<void> locked, release;
  EngineSeams seams;
  seams.after_key_locks = [&, first = true](std::span<const std::int64_t>) mutable {
    if (!first) return;
    first = false;
    locked.set_value();
    release.get_future().wait();
  };
  auto owned = EngineTesting::Make(o, seams);
  Engine& engine = *owned;
  // The one connection stays inside this upsert until released.
  auto held = std::async(std::launch::async, [&] {
    return engine.Upsert(Rec({{"email", "held@x.org"}}));
  });
  locked.get_future().wait();
  CHECK_THROWS_AS(engine.GetPerson(1, Deadline::After(milliseconds(200))), DeadlineError);
  release.set_value();
  CHECK(held.get().outcome == Outcome::kCreated);
  CHECK(engine.Upsert(Rec({{"email", "next@x.org"}})).outcome == Outcome::kCreated);
  CHECK(engine.ConnectionsInUse() == 0);
}

TEST_CASE("a batch that runs out of time keeps the transactions it committed", "[pg][engine]") {
  TestDatabase db;
  EngineOptions o = OptionsFor(db, 1);
  o.lock_timeout = milliseconds(30000);
  o.batch_max_records = 1;  // one transaction per record
  Engine engine(o);
  const std::vector<Record> records = {Rec({{"email", "first@x.org"}}),
                                       Rec({{"email", "second@x.org"}})};
  Holder holder(db, HoldKey("email", "second@x.org"));
  try {
    engine.BatchUpsert(records, Deadline::After(milliseconds(300)));
    FAIL("the batch did not stop at its deadline");
  } catch (const DeadlineError& e) {
    CHECK_THAT(e.what(), Catch::Contains("1 of 2 transactions of the batch committed"));
  }
  CHECK(PersonCount(db) == 1);
  CHECK(PersonHolding(db, "email", "first@x.org") != 0);
}

// An engine of one connection that reaches its database through a proxy.
struct Proxied {
  Proxied() : proxy(db.url()), engine(Through(db, proxy)) {}
  static EngineOptions Through(const TestDatabase& db, const StallProxy& proxy) {
    EngineOptions o = OptionsFor(db, 1);
    o.database_url = proxy.url();
    return o;
  }
  TestDatabase db;
  StallProxy proxy;
  Engine engine;
};

TEST_CASE("a database that stops answering cannot hold a call past its deadline", "[pg][engine]") {
  Proxied proxied;
  auto& [db, proxy, engine] = proxied;
  REQUIRE(engine.Upsert(Rec({{"cookie", "before"}})).ok());

  // No statement_timeout can come back from a server that never got the
  // statements; without the watchdog this call waits for ever.
  proxy.Stall();
  CHECK_THROWS_AS(engine.Upsert(Rec({{"cookie", "stalled"}}), Deadline::After(milliseconds(200))),
                  DeadlineError);
  // The next call must open a new connection, to a server that does not
  // answer the handshake either: the deadline bounds that too.
  CHECK_THROWS_AS(engine.Upsert(Rec({{"cookie", "stalled"}}), Deadline::After(milliseconds(200))),
                  DeadlineError);
  proxy.Resume();
  // The cut connection was replaced; nothing of the stalled call was stored.
  CHECK(engine.Upsert(Rec({{"cookie", "after"}})).outcome == Outcome::kCreated);
  CHECK(PersonCount(db) == 2);
  CHECK(engine.ConnectionsInUse() == 0);
}

TEST_CASE("a COMMIT the database never answers is reported as an unknown outcome", "[pg][engine]") {
  Proxied proxied;
  auto& [db, proxy, engine] = proxied;
  REQUIRE(engine.Upsert(Rec({{"cookie", "known"}})).ok());

  // A new person (its insert goes with the COMMIT) and an update (its
  // writes are deferred to the COMMIT's message).
  const Record record =
      GENERATE(Rec({{"cookie", "new"}}), Rec({{"cookie", "known"}, {"email", "a@x.org"}}));
  // Everything before the COMMIT is answered; the message with it is not.
  proxy.StallAt("COMMIT");
  try {
    engine.Upsert(record, Deadline::After(milliseconds(300)));
    FAIL("the call outlived its deadline");
  } catch (const DeadlineError& e) {
    CHECK_THAT(e.what(), Catch::Contains("may or may not have committed"));
  }
  proxy.Resume();
  // Here the COMMIT never reached the server: nothing of it was stored.
  CHECK(PersonCount(db) == 1);
  CHECK(PersonHolding(db, "email", "a@x.org") == 0);
  CHECK(engine.Upsert(Rec({{"cookie", "after"}})).outcome == Outcome::kCreated);
  CHECK(engine.ConnectionsInUse() == 0);
}

}  // namespace
}  // namespace idres::testing
