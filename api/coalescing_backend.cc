#include "api/coalescing_backend.h"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>

#include "engine/errors.h"

namespace idres::api {

struct CoalescingBackend::Call {
  Call(const Record& r, const Deadline& d) : record(&r), deadline(d) {}
  const Record* record;
  Deadline deadline;
  std::condition_variable woken;
  bool taken = false;    // in a batch; its runner answers it
  bool running = false;  // its thread is a runner now, not waiting
  bool done = false;     // answered
  bool alone = false;    // answered: the batch failed, apply the record on its own
  UpsertResult result;
  std::exception_ptr error;
};

namespace {

constexpr const char* kExpiredInQueue =
    "the deadline passed while waiting for a database connection; nothing was written";
constexpr const char* kExpiredInBatch =
    "the deadline passed while this upsert was applied together with others, and that "
    "transaction failed; it may or may not have been stored";

// The earliest deadline of `batch`; unset when none has one.
template <typename Calls>
Deadline Earliest(const Calls& batch) {
  Deadline earliest;
  for (const auto* call : batch) {
    const auto at = call->deadline.at();
    if (at && (!earliest.IsSet() || *at < *earliest.at())) earliest = call->deadline;
  }
  return earliest;
}

}  // namespace

CoalescingBackend::CoalescingBackend(IdentityBackend& inner, int runners, std::size_t max_batch,
                                     std::size_t max_batch_identifiers, Metrics* metrics)
    : inner_(inner),
      runners_(std::max(1, runners)),
      max_batch_(std::max<std::size_t>(1, max_batch)),
      max_batch_identifiers_(max_batch_identifiers),
      metrics_(metrics) {}

UpsertResult CoalescingBackend::Upsert(const Record& record, const Deadline& deadline) {
  Call me(record, deadline);
  {
    std::unique_lock lock(mu_);
    queue_.push_back(&me);
    ShowQueue();
    try {
      while (!me.done) {
        if (!me.taken && running_ < runners_) {
          RunBatch(lock, me);
        } else if (!me.taken && deadline.Passed()) {
          throw DeadlineError(kExpiredInQueue);
        } else if (me.taken || !deadline.IsSet()) {
          me.woken.wait(lock);
        } else {
          me.woken.wait_until(lock, *deadline.at());
        }
      }
    } catch (...) {
      // Only before a runner took the call: a taken call is answered, never
      // thrown here.
      if (!me.taken) Remove(&me);
      throw;
    }
  }
  if (me.alone) return inner_.Upsert(record, deadline);
  if (me.error) std::rethrow_exception(me.error);
  return std::move(me.result);
}

std::size_t CoalescingBackend::Queued() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

void CoalescingBackend::RunBatch(std::unique_lock<std::mutex>& lock, Call& me) {
  const std::vector<Call*> batch = TakeBatch();  // may throw before it takes any
  ++running_;
  me.running = true;
  WakeNextRunner();
  lock.unlock();
  try {
    Apply(batch);
  } catch (...) {  // e.g. no memory for the copies: every call gets the error
    for (Call* call : batch) call->error = std::current_exception();
  }
  lock.lock();
  me.running = false;
  --running_;
  for (Call* call : batch) {
    call->done = true;
    // Under the mutex: once a waiter sees `done` it may return and end its
    // Call.
    if (call != &me) call->woken.notify_one();
  }
  WakeNextRunner();
}

std::vector<CoalescingBackend::Call*> CoalescingBackend::TakeBatch() {
  std::vector<Call*> batch;
  std::size_t identifiers = 0;
  for (Call* call : queue_) {
    const std::size_t n = call->record->identifiers.size();
    if (!batch.empty() &&
        (batch.size() >= max_batch_ || identifiers + n > max_batch_identifiers_)) {
      break;
    }
    batch.push_back(call);
    identifiers += n;
  }
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(batch.size()));
  for (Call* call : batch) call->taken = true;
  ShowQueue();
  return batch;
}

void CoalescingBackend::Remove(Call* call) {
  const auto at = std::find(queue_.begin(), queue_.end(), call);
  if (at != queue_.end()) queue_.erase(at);
  ShowQueue();
}

void CoalescingBackend::WakeNextRunner() {
  if (running_ >= runners_) return;
  // The oldest call whose thread waits: one that runs a batch already (its
  // own call left behind in the queue) would not hear it.
  for (Call* call : queue_) {
    if (!call->running) {
      call->woken.notify_one();
      return;
    }
  }
}

void CoalescingBackend::ShowQueue() {
  if (metrics_ != nullptr) metrics_->SetUpsertsQueued(queue_.size());
}

void CoalescingBackend::Apply(const std::vector<Call*>& batch) {
  // A call whose deadline passed before its turn never reaches the database.
  std::vector<Call*> live;
  for (Call* call : batch) {
    if (call->deadline.Passed()) {
      call->error = std::make_exception_ptr(DeadlineError(kExpiredInQueue));
    } else {
      live.push_back(call);
    }
  }
  if (live.empty()) return;
  if (live.size() == 1) {
    Call& call = *live.front();
    try {
      call.result = inner_.Upsert(*call.record, call.deadline);
    } catch (...) {
      call.error = std::current_exception();
    }
    return;
  }
  std::vector<Record> records;
  records.reserve(live.size());
  for (const Call* call : live) records.push_back(*call->record);
  bool failed = false;
  try {
    std::vector<UpsertResult> results = inner_.BatchUpsert(records, Earliest(live));
    if (results.size() != live.size()) {
      throw std::logic_error("BatchUpsert answered " + std::to_string(results.size()) +
                             " results for " + std::to_string(live.size()) + " records");
    }
    for (std::size_t i = 0; i < live.size(); ++i) live[i]->result = std::move(results[i]);
  } catch (...) {
    failed = true;
    // One record's trouble is not the others' answer: each goes again alone
    // while it has time. Whether the failed transaction stored a record is
    // unknown (a COMMIT whose answer was lost, or the batch's earlier chunks),
    // and a record out of time cannot find out.
    for (Call* call : live) {
      if (call->deadline.Passed()) {
        call->error = std::make_exception_ptr(DeadlineError(kExpiredInBatch));
      } else {
        call->alone = true;
      }
    }
  }
  if (metrics_ != nullptr) metrics_->OnCoalescedBatch(live.size(), failed);
}

}  // namespace idres::api
