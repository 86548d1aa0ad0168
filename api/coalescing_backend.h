// CoalescingBackend: single upserts that arrive while the database is busy
// share a transaction.
//
// Each Upsert() call joins a queue. At most `runners` calls at once run
// (one per connection of the engine's pool); a call that becomes a runner
// takes the oldest queued calls, up to `max_batch` records and, unless the
// first alone is larger, `max_batch_identifiers` identifiers (which bounds
// the advisory locks one transaction holds), and applies them with one
// BatchUpsert: the engine's batch path, which gives the same persons and
// outcomes as the records applied one by one in queue order
// (tests/engine/batch_equivalence_pgtest.cc). The others wait for their
// result. A call that finds a runner free and nobody queued runs alone, as
// a plain Upsert: under light load nothing changes and nothing waits.
//
// A batch shares one fate, so a batch that fails (a lock timeout on one
// record's key, a deadline, a lost connection) is not the answer for its
// records: each that still has time is then applied again on its own, with
// its own deadline, and gets its own answer. Applying a record again is
// safe: a record that the failed batch did store converges on the same
// person (then answering updated or unchanged, not created).
//
// Deadlines: a call waits in the queue no longer than its deadline (then
// DeadlineError, nothing written), and a call whose deadline has passed
// when its batch starts is left out of it. A batch runs to the earliest
// deadline among its records. A record whose deadline has passed when its
// batch fails gets a DeadlineError saying that it may or may not have been
// stored.
//
// `metrics` (may be null) counts the batches and shows the queue.
//
// Every other method forwards to `inner`, which must outlive this object.
// Thread-safety: as IdentityBackend.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>

#include "api/backend.h"
#include "api/metrics.h"

namespace idres::api {

class CoalescingBackend final : public IdentityBackend {
 public:
  // `runners` >= 1; `max_batch` >= 1 (1 turns coalescing off).
  CoalescingBackend(IdentityBackend& inner, int runners, std::size_t max_batch,
                    std::size_t max_batch_identifiers, Metrics* metrics = nullptr);

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
  // Takes a batch, applies it without mu_ and answers its calls; `me` is
  // the calling thread's own call. Under mu_ (`lock`).
  void RunBatch(std::unique_lock<std::mutex>& lock, Call& me);
  // Takes the oldest queued calls into a batch; under mu_.
  std::vector<Call*> TakeBatch();
  // Takes `call` out of the queue; under mu_.
  void Remove(Call* call);
  // Fills in each call's answer; without mu_.
  void Apply(const std::vector<Call*>& batch);
  // Wakes the oldest queued call if a runner is free; under mu_.
  void WakeNextRunner();
  // Tells the metrics how many wait; under mu_.
  void ShowQueue();

  IdentityBackend& inner_;
  const int runners_;
  const std::size_t max_batch_;
  const std::size_t max_batch_identifiers_;
  Metrics* const metrics_;
  mutable std::mutex mu_;
  std::deque<Call*> queue_;  // guarded by mu_; not yet taken, oldest first
  int running_ = 0;          // guarded by mu_
};

}  // namespace idres::api
