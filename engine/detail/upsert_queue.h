// UpsertQueue: Engine::Submit's queue. Single upserts that arrive while the
// database is busy share a transaction, and no caller's thread waits for the
// database. Internal to engine/.
//
// Each Submit() joins a queue. `runners` threads of this object's own apply
// it, each on a connection of the engine's pool while it applies a group:
// a runner takes the oldest queued calls, up to `max_records` records and,
// unless the first alone is larger, `max_identifiers` identifiers (which
// bounds the advisory locks one transaction holds), and applies them in one
// call of its ApplyBatch: the engine's batch path, which gives the same
// persons and outcomes as the records applied one by one in queue order
// (tests/engine/batch_equivalence_pgtest.cc). A runner that finds a single
// call queued applies it alone, a plain upsert: under light load nothing is
// grouped and nothing waits. Answers go to each call's callback,
// on the runner's thread. The threads start with the first Submit(): a
// queue nobody submits to costs nothing. The runners are named
// idres-upsert, the timekeeper idres-deadlines (base/thread.h).
//
// A group that fails (a lock timeout on one record's key, a deadline, a
// lost connection) is not the answer for its records. The engine applies a
// large group in several transactions (chunks); the records of those that
// committed before the failure get their results. Each other record that
// still has time goes back to the head of the queue, to be applied again on
// its own (by whichever runner is free), with its own deadline, and gets
// its own answer. Only a COMMIT whose answer was lost leaves a record
// applied again that was stored: with a record_id it converges on the same
// person (answering updated or unchanged, not created); without one, it is
// a second record of the same values.
//
// Deadlines: a call waits in the queue no longer than its deadline (then
// DeadlineError, nothing written; a timekeeper thread answers it even while
// every runner is stuck), and a call whose deadline has passed when its
// group starts is left out of it. A group runs to the earliest deadline
// among its records. A record whose deadline passes once its group has
// failed (when it fails, or while the record waits to go again alone) gets
// a DeadlineError saying that it may or may not have been stored.
//
// `observer` (may be null) is told of each group and of the queue's length.
//
// Thread-safety: Submit() and Queued() may be called from many threads at
// once. The destructor waits until every call submitted has been answered.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "engine/deadline.h"
#include "engine/observer.h"
#include "engine/record.h"
#include "engine/submit.h"

namespace idres::detail {

// The results of the records of a group whose transaction committed, by
// the records' order; nullopt: not known to be stored.
using CommittedResults = std::vector<std::optional<UpsertResult>>;

// What the queue applies records with (the engine's batch path, or a fake
// in the tests): records in order, sharing transactions, one result per
// record, or a throw, with `committed` (sized to the records) holding the
// results of those a transaction committed before it; one record alone as
// Engine::Upsert, throwing what it throws. Called from the runner threads,
// several at once.
using ApplyBatch = std::function<std::vector<UpsertResult>(std::span<const Record>, const Deadline&,
                                                           CommittedResults& committed)>;

class UpsertQueue {
 public:
  // `runners` >= 1; `max_records` >= 1 (1 turns grouping off). What
  // `apply` uses and `observer` must outlive the queue.
  UpsertQueue(ApplyBatch apply, int runners, std::size_t max_records, std::size_t max_identifiers,
              EngineObserver* observer = nullptr);
  ~UpsertQueue();
  UpsertQueue(const UpsertQueue&) = delete;
  UpsertQueue& operator=(const UpsertQueue&) = delete;

  // Queues `record`, and calls `done` exactly once with its outcome, on a
  // runner's or the timekeeper's thread (never inside Submit). Throws,
  // without calling `done`, when the call cannot be queued (no memory, no
  // thread to apply it, or the queue is being destroyed).
  void Submit(Record record, const Deadline& deadline, UpsertCallback done);

  // Calls waiting for a runner to take them.
  std::size_t Queued() const EXCLUDES(mu_);

 private:
  struct Call;
  using Calls = std::vector<std::unique_ptr<Call>>;

  // Starts the threads not running yet; under mu_. Throws when not even
  // the timekeeper and one runner run.
  void StartThreads() REQUIRES(mu_);
  // Lets the runners answer every queued call, then joins the threads.
  void Stop() EXCLUDES(mu_);
  // A runner: takes groups while there are calls, until stopping.
  void RunnerLoop() EXCLUDES(mu_);
  // Answers queued calls whose deadline passed, until stopping.
  void TimekeeperLoop() EXCLUDES(mu_);
  // Takes the oldest queued calls into a group; under mu_. Throws (no
  // memory) only before it takes any.
  Calls TakeGroup() REQUIRES(mu_);
  // Applies `group` without mu_: answers its calls, or returns those to be
  // applied again alone. Never throws.
  Calls Apply(Calls group) EXCLUDES(mu_);
  // Fills in the outcomes of `group`'s calls and marks those to retry.
  void ApplyGroup(const Calls& group) EXCLUDES(mu_);
  // Puts `again` back at the head of the queue; under mu_ (`lock`, which it
  // may let go of meanwhile).
  void Requeue(MutexLock& lock, Calls again) REQUIRES(mu_);
  // Wakes the timekeeper if `at` is earlier than it sleeps until; under mu_.
  void WakeTimekeeperFor(std::optional<Deadline::Clock::time_point> at) REQUIRES(mu_);
  // The DeadlineError of `call` once its deadline passed before it ran.
  static std::exception_ptr Expired(const Call& call);
  // Calls the call's callback; without mu_.
  static void Answer(Call& call);
  // Tells the observer how many wait; under mu_.
  void ShowQueue() REQUIRES(mu_);

  const ApplyBatch apply_;
  const std::size_t runners_;
  const std::size_t max_records_;
  const std::size_t max_identifiers_;
  EngineObserver* const observer_;

  mutable Mutex mu_;
  CondVar work_;                                             // runners wait here for calls
  CondVar clock_;                                            // the timekeeper waits here
  std::deque<std::unique_ptr<Call>> queue_ GUARDED_BY(mu_);  // oldest first
  int idle_runners_ GUARDED_BY(mu_) = 0;
  // When the timekeeper wakes next, if it sleeps until a deadline.
  std::optional<Deadline::Clock::time_point> timekeeper_wakes_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;
  // The timekeeper, then the runners; Stop() takes them out to join them.
  std::vector<std::thread> threads_ GUARDED_BY(mu_);
};

}  // namespace idres::detail
