// Engine::Submit against a real database: upserts queued behind a busy
// runner go in as one group, each caller with the answer it would get alone,
// the observer sees the group, and the engine's destructor answers every
// call before it returns. Which calls share a group, and what each gets when
// a group fails, is tested without a database (upsert_queue_test.cc).
#include "engine/engine.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <future>
#include <pqxx/pqxx>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "normalize/lock_key.h"
#include "tests/engine/engine_fixture.h"

namespace idres::testing {
namespace {

class GroupCounter final : public EngineObserver {
 public:
  std::atomic<std::size_t> groups{0}, grouped{0}, failed{0}, queued{0};
  void OnUpsertGroup(std::size_t records, bool group_failed) override {
    ++groups;
    grouped += records;
    if (group_failed) ++failed;
  }
  void OnUpsertsQueued(std::size_t n) override { queued = n; }
};

// Submits `record` and hands back its outcome as a future.
std::future<UpsertOutcome> Submit(Engine& engine, Record record) {
  auto answer = std::make_shared<std::promise<UpsertOutcome>>();
  auto outcome = answer->get_future();
  engine.Submit(std::move(record), {},
                [answer](UpsertOutcome o) { answer->set_value(std::move(o)); });
  return outcome;
}

// Polls until `done`; a sync point, nothing asserted on time.
template <typename F>
void AwaitTrue(F done) {
  for (int i = 0; i < 6000 && !done(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(done());
}

constexpr int kQueued = 5;

TEST_CASE("Submit: upserts queued behind a busy runner go in as one group", "[pg][engine]") {
  TestDatabase db;
  auto counter = std::make_shared<GroupCounter>();
  EngineOptions options = OptionsFor(db, 2);
  options.upsert_runners = 1;
  options.observer = counter;
  Engine engine(options);
  // The only runner waits on a key the test holds.
  pqxx::connection holder(db.url());
  pqxx::work held(holder);
  held.exec("SELECT pg_advisory_xact_lock(" + std::to_string(LockKey("email", "held@x.org")) + ")");
  std::vector<std::future<UpsertOutcome>> calls;
  calls.push_back(Submit(engine, Rec({{"email", "held@x.org"}})));
  AwaitTrue([&] { return SomeoneWaitsOnALock(db); });
  for (int i = 0; i < kQueued; ++i) {
    calls.push_back(Submit(engine, Rec({{"email", "q" + std::to_string(i) + "@x.org"}})));
  }
  AwaitTrue([&] { return counter->queued == kQueued; });
  held.abort();
  std::set<std::int64_t> persons;
  for (auto& call : calls) {
    UpsertOutcome outcome = call.get();
    REQUIRE_FALSE(outcome.error);
    CHECK(outcome.result.outcome == Outcome::kCreated);
    persons.insert(outcome.result.person_id);
  }
  CHECK(persons.size() == kQueued + 1);
  CHECK(PersonCount(db) == kQueued + 1);
  CHECK(counter->groups == 1);
  CHECK(counter->grouped == kQueued);
  CHECK(counter->failed == 0);
  CHECK(counter->queued == 0);
}

TEST_CASE("Submit: the engine's destructor answers every call submitted", "[pg][engine]") {
  TestDatabase db;
  std::atomic<int> answered{0};
  constexpr int kCalls = 40;
  {
    Engine engine(OptionsFor(db, 2));
    for (int i = 0; i < kCalls; ++i) {
      // Every tenth record twice: grouped or not, one person each.
      engine.Submit(Rec({{"email", "d" + std::to_string(i % 10 == 0 ? 0 : i) + "@x.org"}}), {},
                    [&answered](UpsertOutcome outcome) {
                      if (!outcome.error && outcome.result.ok()) ++answered;
                    });
    }
  }
  CHECK(answered == kCalls);
  CHECK(PersonCount(db) == kCalls - 3);
  CHECK(DuplicateIdentifiers(db) == 0);
}

}  // namespace
}  // namespace idres::testing
