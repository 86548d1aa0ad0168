// CoalescingBackend: single upserts that arrive while the database is busy
// share a transaction, and no caller's thread waits for the database.
//
// Each upsert, from Submit() or Upsert(), joins a queue. `runners` threads
// of this object's own apply it, each on a connection of the engine's pool
// while it applies a batch:
// a runner takes the oldest queued calls, up to `max_batch` records and,
// unless the first alone is larger, `max_batch_identifiers` identifiers
// (which bounds the advisory locks one transaction holds), and applies them
// with one BatchUpsert: the engine's batch path, which gives the same persons
// and outcomes as the records applied one by one in queue order
// (tests/engine/batch_equivalence_pgtest.cc). A runner that finds a single
// call queued applies it as a plain Upsert: under light load nothing is
// batched and nothing waits. Answers go to each call's callback, on the
// runner's thread.
//
// A batch shares one fate, so a batch that fails (a lock timeout on one
// record's key, a deadline, a lost connection) is not the answer for its
// records: each that still has time goes back to the head of the queue, to
// be applied again on its own (by whichever runner is free), with its own
// deadline, and gets its own answer. Applying a record again is safe: a
// record that the failed batch did store converges on the same person (then
// answering updated or unchanged, not created).
//
// Deadlines: a call waits in the queue no longer than its deadline (then
// DeadlineError, nothing written; a timekeeper thread answers it even while
// every runner is stuck), and a call whose deadline has passed when its
// batch starts is left out of it. A batch runs to the earliest deadline
// among its records. A record whose deadline passes once its batch has
// failed (when it fails, or while the record waits to go again alone) gets
// a DeadlineError saying that it may or may not have been stored.
//
// `metrics` (may be null) counts the batches and shows the queue.
//
// Every other method forwards to `inner`, which must outlive this object.
// Thread-safety: as IdentityBackend. The destructor waits until every call
// submitted has been answered.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "api/async_upserter.h"
#include "api/backend.h"
#include "api/metrics.h"

namespace idres::api {

class CoalescingBackend final : public IdentityBackend, public AsyncUpserter {
 public:
  // `runners` >= 1; `max_batch` >= 1 (1 turns coalescing off).
  CoalescingBackend(IdentityBackend& inner, int runners, std::size_t max_batch,
                    std::size_t max_batch_identifiers, Metrics* metrics = nullptr);
  ~CoalescingBackend() override;
  CoalescingBackend(const CoalescingBackend&) = delete;
  CoalescingBackend& operator=(const CoalescingBackend&) = delete;

  // Throws, without calling `done`, when the call cannot be queued (no
  // memory, or the object is being destroyed).
  void Submit(Record record, const Deadline& deadline, UpsertCallback done) override;

  // Submit(), then waits for the outcome on the calling thread.
  UpsertResult Upsert(const Record& record, const Deadline& deadline) override;

  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                        const Deadline& deadline) override {
    return inner_.BatchUpsert(records, deadline);
  }
  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                        const BatchReceipt& receipt,
                                        const Deadline& deadline) override {
    return inner_.BatchUpsert(records, receipt, deadline);
  }
  void ForgetReceipts(std::int64_t job) override { inner_.ForgetReceipts(job); }
  std::optional<Person> GetPerson(std::int64_t id, const Deadline& deadline) override {
    return inner_.GetPerson(id, deadline);
  }
  std::variant<std::optional<Person>, Rejection> Lookup(const RawIdentifier& identifier,
                                                        std::string_view region,
                                                        const Deadline& deadline) override {
    return inner_.Lookup(identifier, region, deadline);
  }
  StoreStats Stats() override { return inner_.Stats(); }
  bool Healthy() override { return inner_.Healthy(); }
  int ConnectionsInUse() const override { return inner_.ConnectionsInUse(); }

  // Calls waiting for a runner to take them.
  std::size_t Queued() const;

 private:
  struct Call;
  using Calls = std::vector<std::unique_ptr<Call>>;

  // Lets the runners answer every queued call, then joins the threads.
  void Stop();
  // A runner: takes batches while there are calls, until stopping.
  void RunnerLoop();
  // Answers queued calls whose deadline passed, until stopping.
  void TimekeeperLoop();
  // Takes the oldest queued calls into a batch; under mu_. Throws (no
  // memory) only before it takes any.
  Calls TakeBatch();
  // Applies `batch` without mu_: answers its calls, or returns those to be
  // applied again alone. Never throws.
  Calls Apply(Calls batch);
  // Fills in the outcomes of `batch`'s calls and marks those to retry.
  void ApplyBatch(const Calls& batch);
  // Puts `again` back at the head of the queue; under mu_ (`lock`).
  void Requeue(std::unique_lock<std::mutex>& lock, Calls again);
  // Wakes the timekeeper if `at` is earlier than it sleeps until; under mu_.
  void WakeTimekeeperFor(std::optional<Deadline::Clock::time_point> at);
  // The DeadlineError of `call` once its deadline passed before it ran.
  static std::exception_ptr Expired(const Call& call);
  // Calls the call's callback; without mu_.
  static void Answer(Call& call);
  // Tells the metrics how many wait; under mu_.
  void ShowQueue();

  IdentityBackend& inner_;
  const std::size_t max_batch_;
  const std::size_t max_batch_identifiers_;
  Metrics* const metrics_;

  mutable std::mutex mu_;
  std::condition_variable work_;             // runners wait here for calls
  std::condition_variable clock_;            // the timekeeper waits here
  std::deque<std::unique_ptr<Call>> queue_;  // guarded by mu_; oldest first
  int idle_runners_ = 0;                     // guarded by mu_
  // When the timekeeper wakes next, if it sleeps until a deadline; guarded
  // by mu_.
  std::optional<Deadline::Clock::time_point> timekeeper_wakes_;
  bool stopping_ = false;  // guarded by mu_
  std::vector<std::thread> threads_;
};

}  // namespace idres::api
