// UpsertQueue (engine/detail/upsert_queue.h), the queue behind
// Engine::Submit: which calls share a group, in what order, and what each
// caller gets back when the group fails. The applier here is a fake that
// holds its first call until released, so that the others queue behind it;
// what a shared transaction does to the store is tested against the engine
// (batch_equivalence_pgtest, and the server's race tests, which run through
// the queue).
#include "engine/detail/upsert_queue.h"

#include <pthread.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "engine/errors.h"

namespace idres::testing {
namespace {

constexpr std::size_t kManyIdentifiers = 1000;

// A record whose first identifier is cookie `cookie`, with `extra` more.
Record Named(const std::string& cookie, int extra = 0) {
  Record r;
  r.identifiers.push_back({"cookie", cookie});
  for (int i = 0; i < extra; ++i) r.identifiers.push_back({"email", std::to_string(i) + "@x.org"});
  return r;
}

// Answers each record with person_id = the number in its cookie; holds the
// first call until Release(); fails groups while `fail_groups` is set.
class GatedApplier {
 public:
  // Set before the first call, read by the queue's threads after it.
  bool fail_groups = false;
  // A group's first record commits (a chunk of its own), then the group
  // fails.
  bool fail_groups_after_first = false;
  // A group waits until its deadline has passed, then fails as the engine
  // would.
  bool groups_outlive_deadline = false;
  // Upserting this cookie alone waits until its deadline has passed, then
  // fails as the engine would.
  std::string slow_cookie = "none";

  void Release() EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    released_ = true;
    cv_.NotifyAll();
  }
  // Blocks until the first call has arrived and is being held.
  void AwaitHeld() EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    while (calls_.empty()) cv_.Wait(&mu_);
  }
  std::size_t CallCount() EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    return calls_.size();
  }
  // The cookies of each call, in order; the deadline of each call; whether
  // each call was an a group.
  std::vector<std::vector<std::string>> Calls() EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    return calls_;
  }
  std::vector<Deadline> Deadlines() EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    return deadlines_;
  }
  std::vector<bool> Batched() EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    return batched_;
  }

  // The queue's ApplyBatch: a record alone as an upsert, more as a group.
  detail::ApplyBatch Batch() {
    return [this](std::span<const Record> records, const Deadline& deadline,
                  detail::CommittedResults& committed) {
      if (records.size() == 1) return std::vector<UpsertResult>{ApplyOne(records[0], deadline)};
      return ApplyInOrder(records, deadline, committed);
    };
  }

 private:
  UpsertResult ApplyOne(const Record& record, const Deadline& deadline) {
    Enter(std::span<const Record>(&record, 1), deadline, false);
    if (record.identifiers.front().value == "throws") throw BusyError("held key");
    if (record.identifiers.front().value == slow_cookie) {
      while (!deadline.Passed()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      throw DeadlineError("the deadline passed");
    }
    return Answer(record);
  }
  std::vector<UpsertResult> ApplyInOrder(std::span<const Record> records, const Deadline& deadline,
                                         detail::CommittedResults& committed) {
    Enter(records, deadline, true);
    if (fail_groups) throw BusyError("a key was held");
    if (fail_groups_after_first) {
      committed[0] = Answer(records[0]);
      throw BusyError("a key of the second chunk was held");
    }
    if (groups_outlive_deadline) {
      while (!deadline.Passed()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      throw DeadlineError("the deadline passed");
    }
    std::vector<UpsertResult> out;
    for (const Record& r : records) out.push_back(Answer(r));
    return out;
  }

  void Enter(std::span<const Record> records, const Deadline& deadline, bool batch) EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    std::vector<std::string> cookies;
    for (const Record& r : records) cookies.push_back(r.identifiers.front().value);
    calls_.push_back(std::move(cookies));
    deadlines_.push_back(deadline);
    batched_.push_back(batch);
    cv_.NotifyAll();
    if (calls_.size() == 1) {
      while (!released_) cv_.Wait(&mu_);
    }
  }
  static UpsertResult Answer(const Record& r) {
    UpsertResult result;
    result.outcome = Outcome::kCreated;
    const std::string& value = r.identifiers.front().value;
    result.person_id = value == "bad" ? 0 : std::stoll(value);
    if (value == "bad") result.error = "no valid identifier";
    return result;
  }

  Mutex mu_;
  CondVar cv_;
  std::vector<std::vector<std::string>> calls_ GUARDED_BY(mu_);
  std::vector<Deadline> deadlines_ GUARDED_BY(mu_);
  std::vector<bool> batched_ GUARDED_BY(mu_);
  bool released_ GUARDED_BY(mu_) = false;
};

// Submits `record` to `queue` and waits for its outcome: the result, or
// the error rethrown.
UpsertResult Upsert(detail::UpsertQueue& queue, Record record, const Deadline& deadline) {
  // Shared with the callback, which may still be returning from set_value
  // when this thread has its answer.
  auto answer = std::make_shared<std::promise<UpsertOutcome>>();
  auto outcome = answer->get_future();
  queue.Submit(std::move(record), deadline,
               [answer](UpsertOutcome o) { answer->set_value(std::move(o)); });
  UpsertOutcome o = outcome.get();
  if (o.error) std::rethrow_exception(o.error);
  return std::move(o.result);
}

// Starts Upsert(Named(cookie, extra)) on a thread of its own.
std::future<UpsertResult> Start(detail::UpsertQueue& queue, const std::string& cookie,
                                Deadline deadline = {}, int extra = 0) {
  return std::async(std::launch::async, [&queue, cookie, deadline, extra] {
    return Upsert(queue, Named(cookie, extra), deadline);
  });
}

// Blocks until `n` calls wait in `queue` (a sync point; the bound only
// keeps a broken queue from hanging the test).
void AwaitQueued(const detail::UpsertQueue& queue, std::size_t n) {
  for (int i = 0; i < 60000 && queue.Queued() < n; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  REQUIRE(queue.Queued() >= n);
}

struct Queued {
  Queued(const char* c, Deadline d = {}, int extra = 0)  // NOLINT: implicit
      : cookie(c), deadline(d), extra_identifiers(extra) {}
  std::string cookie;
  Deadline deadline;
  int extra_identifiers;
};

// Upserts cookie "1", which `inner` holds, queues `calls` behind it in their
// order, and lets go; the queued calls' futures.
std::vector<std::future<UpsertResult>> QueueBehindFirst(GatedApplier& inner,
                                                        detail::UpsertQueue& queue,
                                                        const std::vector<Queued>& calls) {
  auto first = Start(queue, "1");
  inner.AwaitHeld();
  std::vector<std::future<UpsertResult>> queued;
  for (const Queued& call : calls) {
    queued.push_back(Start(queue, call.cookie, call.deadline, call.extra_identifiers));
    AwaitQueued(queue, queued.size());  // keeps the order known
  }
  inner.Release();
  CHECK(first.get().person_id == 1);
  return queued;
}

// Threads of this process now (ctest runs each test case in a process of
// its own).
std::size_t Threads() {
  const std::filesystem::directory_iterator tasks("/proc/self/task");
  return static_cast<std::size_t>(std::distance(begin(tasks), end(tasks)));
}

TEST_CASE("a queue starts its threads with the first call, not before", "[engine]") {
  const std::size_t before = Threads();
  GatedApplier inner;
  inner.Release();
  detail::UpsertQueue queue(inner.Batch(), 3, 32, kManyIdentifiers);
  CHECK(Threads() == before);
  CHECK(Upsert(queue, Named("7"), {}).person_id == 7);
  CHECK(Threads() == before + 4);  // the timekeeper and three runners
  CHECK(Upsert(queue, Named("8"), {}).person_id == 8);
  CHECK(Threads() == before + 4);
}

TEST_CASE("a lone upsert on an idle queue is a plain upsert", "[engine]") {
  GatedApplier inner;
  inner.Release();
  detail::UpsertQueue queue(inner.Batch(), 2, 32, kManyIdentifiers);
  CHECK(Upsert(queue, Named("7"), {}).person_id == 7);
  REQUIRE(inner.Calls().size() == 1);
  CHECK(inner.Calls()[0] == std::vector<std::string>{"7"});
  CHECK(inner.Batched() == std::vector<bool>{false});
}

TEST_CASE("upserts queued behind a busy connection share one group, in arrival order", "[engine]") {
  GatedApplier inner;
  detail::UpsertQueue queue(inner.Batch(), 1, 32, kManyIdentifiers);
  auto queued = QueueBehindFirst(inner, queue, {{"2"}, {"3"}, {"4"}, {"5"}});
  for (int i = 2; i <= 5; ++i) CHECK(queued[static_cast<std::size_t>(i - 2)].get().person_id == i);
  REQUIRE(inner.Calls().size() == 2);
  CHECK(inner.Calls()[1] == std::vector<std::string>{"2", "3", "4", "5"});
  CHECK(inner.Batched() == std::vector<bool>{false, true});
}

TEST_CASE("a group takes at most max_records records, the rest go next", "[engine]") {
  GatedApplier inner;
  detail::UpsertQueue queue(inner.Batch(), 1, 2, kManyIdentifiers);
  auto queued = QueueBehindFirst(inner, queue, {{"2"}, {"3"}, {"4"}, {"5"}, {"6"}});
  for (auto& f : queued) CHECK(f.get().ok());
  CHECK(inner.Calls() ==
        std::vector<std::vector<std::string>>{{"1"}, {"2", "3"}, {"4", "5"}, {"6"}});
}

TEST_CASE("a bad record in a group gets its own error, the others their persons", "[engine]") {
  GatedApplier inner;
  detail::UpsertQueue queue(inner.Batch(), 1, 32, kManyIdentifiers);
  auto queued = QueueBehindFirst(inner, queue, {{"bad"}, {"3"}});
  CHECK(queued[0].get().error == "no valid identifier");
  CHECK(queued[1].get().person_id == 3);
}

TEST_CASE("a failed group is no record's answer: each is applied again alone", "[engine]") {
  GatedApplier inner;
  inner.fail_groups = true;
  detail::UpsertQueue queue(inner.Batch(), 1, 32, kManyIdentifiers);
  auto queued = QueueBehindFirst(inner, queue, {{"throws"}, {"3"}});
  // The group failed for both; alone, one record fails and one goes in.
  CHECK_THROWS_AS(queued[0].get(), BusyError);
  CHECK(queued[1].get().person_id == 3);
  REQUIRE(inner.Calls().size() == 4);
  CHECK(inner.Calls()[1] == std::vector<std::string>{"throws", "3"});
}

TEST_CASE("a failed group answers what its committed chunks stored, the rest go again alone",
          "[engine]") {
  GatedApplier inner;
  inner.fail_groups_after_first = true;
  detail::UpsertQueue queue(inner.Batch(), 1, 32, kManyIdentifiers);
  auto queued = QueueBehindFirst(inner, queue, {{"2"}, {"3"}});
  CHECK(queued[0].get().person_id == 2);
  CHECK(queued[1].get().person_id == 3);
  // "2" was stored once: applied again, a record without a record_id
  // would be stored twice.
  CHECK(inner.Calls() == std::vector<std::vector<std::string>>{{"1"}, {"2", "3"}, {"3"}});
}

TEST_CASE("a group runs to the earliest deadline of its records", "[engine]") {
  GatedApplier inner;
  detail::UpsertQueue queue(inner.Batch(), 1, 32, kManyIdentifiers);
  const Deadline soon = Deadline::After(std::chrono::milliseconds(60000));
  const Deadline later = Deadline::After(std::chrono::milliseconds(90000));
  auto queued = QueueBehindFirst(inner, queue, {{"2", later}, {"3", {}}, {"4", soon}});
  for (auto& f : queued) CHECK(f.get().ok());
  REQUIRE(inner.Deadlines().size() == 2);
  CHECK(inner.Deadlines()[1].at() == soon.at());
}

TEST_CASE("a group stops before the identifier bound, unless its first record passes it",
          "[engine]") {
  GatedApplier inner;
  detail::UpsertQueue queue(inner.Batch(), 1, 32, 3);
  auto queued =
      QueueBehindFirst(inner, queue, {{"2", {}, 1}, {"3", {}, 0}, {"4", {}, 1}, {"5", {}, 5}});
  for (auto& f : queued) CHECK(f.get().ok());
  CHECK(inner.Calls() == std::vector<std::vector<std::string>>{{"1"}, {"2", "3"}, {"4"}, {"5"}});
}

TEST_CASE("a call waits in the queue no longer than its deadline, and never runs", "[engine]") {
  GatedApplier inner;
  detail::UpsertQueue queue(inner.Batch(), 1, 32, kManyIdentifiers);
  auto first = Start(queue, "1");
  inner.AwaitHeld();
  auto late = Start(queue, "2", Deadline::After(std::chrono::milliseconds(100)));
  try {
    late.get();
    FAIL("the call outlived its deadline");
  } catch (const DeadlineError& e) {
    CHECK_THAT(e.what(), Catch::Contains("nothing was written"));
  }
  CHECK(queue.Queued() == 0);
  inner.Release();
  CHECK(first.get().person_id == 1);
  CHECK(inner.CallCount() == 1);
}

TEST_CASE("a record out of time when its group fails is told it may have been stored", "[engine]") {
  GatedApplier inner;
  inner.groups_outlive_deadline = true;
  detail::UpsertQueue queue(inner.Batch(), 1, 32, kManyIdentifiers);
  auto queued = QueueBehindFirst(inner, queue,
                                 {{"2", Deadline::After(std::chrono::milliseconds(2000))}, {"3"}});
  try {
    queued[0].get();
    FAIL("the call outlived its deadline");
  } catch (const DeadlineError& e) {
    CHECK_THAT(e.what(), Catch::Contains("may or may not have been stored"));
  }
  // The record with time left is applied again, alone.
  CHECK(queued[1].get().person_id == 3);
  CHECK(inner.Calls() == std::vector<std::vector<std::string>>{{"1"}, {"2", "3"}, {"3"}});
  CHECK(inner.Batched() == std::vector<bool>{false, true, false});
}

TEST_CASE("a record out of time while it waits to go again alone may have been stored",
          "[engine]") {
  GatedApplier inner;
  inner.fail_groups = true;
  inner.slow_cookie = "2";
  detail::UpsertQueue queue(inner.Batch(), 1, 32, kManyIdentifiers);
  // The group {2, 3} fails; 2 goes again alone first and holds the only
  // runner past 3's deadline, which passes while 3 waits in the queue.
  auto queued = QueueBehindFirst(inner, queue,
                                 {{"2", Deadline::After(std::chrono::milliseconds(5000))},
                                  {"3", Deadline::After(std::chrono::milliseconds(3000))}});
  CHECK_THROWS_AS(queued[0].get(), DeadlineError);
  try {
    queued[1].get();
    FAIL("the call outlived its deadline");
  } catch (const DeadlineError& e) {
    // The failed group may have stored it: not "nothing was written".
    CHECK_THAT(e.what(), Catch::Contains("may or may not have been stored"));
  }
  CHECK(inner.Calls() == std::vector<std::vector<std::string>>{{"1"}, {"2", "3"}, {"2"}});
}

TEST_CASE("an exception of a lone upsert reaches its caller only", "[engine]") {
  GatedApplier inner;
  inner.Release();
  detail::UpsertQueue queue(inner.Batch(), 2, 32, kManyIdentifiers);
  CHECK_THROWS_AS(Upsert(queue, Named("throws"), {}), BusyError);
  CHECK(Upsert(queue, Named("2"), {}).person_id == 2);
}

TEST_CASE("Submit returns at once and answers on a runner's thread", "[engine]") {
  GatedApplier inner;
  detail::UpsertQueue queue(inner.Batch(), 1, 32, kManyIdentifiers);
  std::promise<std::pair<std::thread::id, UpsertOutcome>> answer;
  auto answered = answer.get_future();
  queue.Submit(Named("1"), {}, [&answer](UpsertOutcome outcome) {
    answer.set_value({std::this_thread::get_id(), std::move(outcome)});
  });
  inner.AwaitHeld();  // Submit has returned while the database holds the call
  inner.Release();
  auto [thread, outcome] = answered.get();
  CHECK(thread != std::this_thread::get_id());
  CHECK_FALSE(outcome.error);
  CHECK(outcome.result.person_id == 1);
}

// The name of the calling thread.
std::string ThreadName() {
  char name[16] = {};
  ::pthread_getname_np(::pthread_self(), name, sizeof name);
  return name;
}

// The names of this process's threads.
std::vector<std::string> ThreadNames() {
  std::vector<std::string> names;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    names.push_back(name);
  }
  return names;
}

TEST_CASE("the runners and the timekeeper carry names of their own", "[engine]") {
  GatedApplier inner;
  detail::UpsertQueue queue(inner.Batch(), 2, 32, kManyIdentifiers);
  std::promise<std::string> answer;
  auto answered = answer.get_future();
  queue.Submit(Named("1"), {}, [&answer](const UpsertOutcome&) { answer.set_value(ThreadName()); });
  // Named by the time Submit returns, whatever they have run yet.
  const std::vector<std::string> names = ThreadNames();
  CHECK(std::ranges::count(names, "idres-upsert") == 2);
  CHECK(std::ranges::count(names, "idres-deadlines") == 1);
  inner.Release();
  CHECK(answered.get() == "idres-upsert");
}

TEST_CASE("a stopping queue answers every call it was given", "[engine]") {
  GatedApplier inner;
  std::mutex mu;
  std::vector<std::int64_t> answered;
  const auto record = [&](UpsertOutcome outcome) {
    std::lock_guard lock(mu);
    answered.push_back(outcome.result.person_id);
  };
  {
    detail::UpsertQueue queue(inner.Batch(), 1, 2, kManyIdentifiers);
    queue.Submit(Named("1"), {}, record);
    inner.AwaitHeld();
    for (const char* cookie : {"2", "3", "4"}) queue.Submit(Named(cookie), {}, record);
    inner.Release();
  }  // the destructor returns only once all four are answered
  std::sort(answered.begin(), answered.end());
  CHECK(answered == std::vector<std::int64_t>{1, 2, 3, 4});
  CHECK(inner.Calls() == std::vector<std::vector<std::string>>{{"1"}, {"2", "3"}, {"4"}});
}

}  // namespace
}  // namespace idres::testing
