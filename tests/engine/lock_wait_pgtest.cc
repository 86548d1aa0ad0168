// Tests that show who waits on whom: the lock timeout, and records that
// share no key (or only one weak value) not waiting on each other.
#include <catch2/catch.hpp>
#include <future>
#include <pqxx/pqxx>
#include <thread>

#include "engine/engine.h"
#include "normalize/lock_key.h"
#include "tests/engine/engine_fixture.h"

namespace idres::testing {
namespace {

TEST_CASE("a key held past lock_timeout is a clean busy error, then the upsert succeeds",
          "[pg][engine]") {
  TestDatabase db;
  // One connection: the upsert after the timeout reuses the connection whose
  // transaction timed out inside its first message, so a transaction left
  // open there would fail it.
  EngineOptions o = OptionsFor(db, 1);
  o.lock_timeout = std::chrono::milliseconds(200);
  Engine engine(o);
  pqxx::connection holder(db.url());
  pqxx::nontransaction h(holder);
  h.exec("BEGIN");
  h.exec("SELECT pg_advisory_xact_lock(" + std::to_string(LockKey("email", "x@example.com")) + ")");
  try {
    engine.Upsert(Rec({{"email", "x@example.com"}}));
    FAIL("the upsert did not wait for the held key");
  } catch (const BusyError& e) {
    CHECK(e.retryable());
  }
  CHECK(PersonCount(db) == 0);
  h.exec("ROLLBACK");
  CHECK(engine.Upsert(Rec({{"email", "x@example.com"}})).outcome == Outcome::kCreated);
}

// Holds one upsert inside its transaction (key locks granted) until released.
class HeldUpsert {
 public:
  HeldUpsert(const TestDatabase& db, Record record) {
    EngineOptions o = OptionsFor(db, 1);
    EngineSeams seams;
    seams.after_key_locks = [this](std::span<const std::int64_t>) {
      locked_.set_value();
      release_.get_future().wait();
    };
    engine_ = EngineTesting::Make(o, seams);
    thread_ = std::thread([this, record] { result_ = engine_->Upsert(record); });
    locked_.get_future().wait();
  }
  ~HeldUpsert() { Release(); }
  UpsertResult Release() {
    if (thread_.joinable()) {
      release_.set_value();
      thread_.join();
    }
    return result_;
  }

 private:
  std::promise<void> locked_, release_;
  std::unique_ptr<Engine> engine_;
  std::thread thread_;
  UpsertResult result_;
};

// An engine whose upserts give up quickly instead of waiting: a BusyError
// here means "it would have waited".
std::unique_ptr<Engine> Impatient(const TestDatabase& db) {
  EngineOptions o = OptionsFor(db, 1);
  o.lock_timeout = std::chrono::milliseconds(500);
  return std::make_unique<Engine>(o);
}

const char* kDate = "1980-01-01";

TEST_CASE("records that share nothing do not wait on each other", "[pg][engine]") {
  TestDatabase db;
  auto other = Impatient(db);
  HeldUpsert held(db, Rec({{"email", "a@x.org"}, {"phone", "+4917011111111"}}));
  CHECK(other->Upsert(Rec({{"email", "b@x.org"}, {"phone", "+4917022222222"}})).outcome ==
        Outcome::kCreated);
  // Control: sharing the email does wait.
  CHECK_THROWS_AS(other->Upsert(Rec({{"email", "a@x.org"}})), BusyError);
  CHECK(held.Release().outcome == Outcome::kCreated);
  CHECK(PersonCount(db) == 2);
}

TEST_CASE("records sharing only a postal code or only a birth date do not wait", "[pg][engine]") {
  TestDatabase db;
  auto other = Impatient(db);
  HeldUpsert held(db, Rec({{"name", "Anna"}, {"birth_date", kDate}, {"postal_code", "10115"}}));
  CHECK(other
            ->Upsert(Rec({{"name", "Bert"},
                          {"birth_date", "1975-05-05"},
                          {"postal_code", "10115"},
                          {"cookie", "b"}}))
            .ok());
  CHECK(
      other
          ->Upsert(Rec(
              {{"name", "Carl"}, {"birth_date", kDate}, {"postal_code", "80331"}, {"cookie", "c"}}))
          .ok());
  CHECK(other->Upsert(Rec({{"postal_code", "10115"}, {"cookie", "d"}})).ok());
  // Control: the same three weak values do wait.
  CHECK_THROWS_AS(
      other->Upsert(Rec({{"name", "anna"}, {"birth_date", kDate}, {"postal_code", "10115"}})),
      BusyError);
  held.Release();
  CHECK(PersonCount(db) == 4);
}

// Blocks until `n` sessions of `db` wait for an advisory lock.
void AwaitKeyWaiters(const TestDatabase& db, int n) {
  while (db.Count("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted") <
         n) {
    std::this_thread::yield();
  }
}

// The key locks, the candidate read and the BEGIN travel in one message: the
// read must still take its snapshot after the lock wait, or a record that
// waited for the person's creator would not see that person. Weak values
// only, so no unique index can turn the miss into a retry.
TEST_CASE("a record that waited on a key reads what the key's holder committed", "[pg][engine]") {
  TestDatabase db;
  HeldUpsert held(db, Rec({{"name", "Anna"}, {"birth_date", kDate}, {"postal_code", "10115"}}));
  auto waiter = MakeEngine(db, 1);
  auto second = std::async(std::launch::async, [&] {
    return waiter->Upsert(
        Rec({{"name", "anna"}, {"birth_date", kDate}, {"postal_code", "10115"}, {"cookie", "w"}}));
  });
  AwaitKeyWaiters(db, 1);
  CHECK(held.Release().outcome == Outcome::kCreated);
  CHECK(second.get().outcome == Outcome::kUpdated);
  CHECK(PersonCount(db) == 1);
}

// A write sent with COMMIT (Tx::Defer) that fails there: the transaction
// rolls back, the same connection (pool of 1) runs the retry, and the retry
// decides on what is stored by then. The conflict comes from a writer that
// takes no keys, between the upsert's read and its write.
TEST_CASE("a deferred write that fails at COMMIT is rolled back and retried", "[pg][engine]") {
  TestDatabase db;
  REQUIRE(MakeEngine(db, 1)->Upsert(Rec({{"email", "a@x.org"}})).outcome == Outcome::kCreated);
  EngineOptions o = OptionsFor(db, 1);
  int attempts = 0;
  EngineSeams seams;
  seams.after_key_locks = [&](std::span<const std::int64_t>) {
    if (++attempts > 1) return;
    // Another person takes the customer id (exclusive) this update is about
    // to add.
    db.Exec(
        "WITH p AS (INSERT INTO persons DEFAULT VALUES RETURNING id)"
        " INSERT INTO identifiers (person_id, type, value, is_unique)"
        " SELECT id, 'customer_id', 'c-1', true FROM p");
  };
  auto owned = EngineTesting::Make(o, seams);
  Engine& engine = *owned;
  const UpsertResult r = engine.Upsert(Rec({{"email", "a@x.org"}, {"customer_id", "c-1"}}));
  CHECK(attempts == 2);
  // The retry found both persons and merged the customer id's holder into the
  // email's (the older one).
  CHECK(r.outcome == Outcome::kMerged);
  CHECK(PersonCount(db) == 1);
  CHECK(DuplicateIdentifiers(db) == 0);
  CHECK(engine.ConnectionsInUse() == 0);
  CHECK(engine.Upsert(Rec({{"email", "a@x.org"}})).outcome == Outcome::kUnchanged);
}

}  // namespace
}  // namespace idres::testing
