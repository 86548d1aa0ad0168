#include "api/coalescing_backend.h"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>

namespace idres::api {

struct CoalescingBackend::Call {
  Call(const Record& r, const Deadline& d) : record(&r), deadline(d) {}
  const Record* record;
  Deadline deadline;
  std::condition_variable woken;
  bool taken = false;  // in a batch; its runner answers it
  bool done = false;   // answered
  bool alone = false;  // answered: the batch failed, apply the record on its own
  UpsertResult result;
  std::exception_ptr error;
};

namespace {

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
                                     Metrics* metrics)
    : inner_(inner),
      runners_(std::max(1, runners)),
      max_batch_(std::max<std::size_t>(1, max_batch)),
      metrics_(metrics) {}

UpsertResult CoalescingBackend::Upsert(const Record& record, const Deadline& deadline) {
  Call me(record, deadline);
  {
    std::unique_lock lock(mu_);
    queue_.push_back(&me);
    ShowQueue();
    while (!me.done) {
      if (me.taken || running_ >= runners_) {
        me.woken.wait(lock);
        continue;
      }
      // A free runner: this thread applies the oldest calls, its own among
      // them unless more than a batch came before it.
      const std::vector<Call*> batch = TakeBatch();
      ++running_;
      WakeNextRunner();
      lock.unlock();
      Apply(batch);
      lock.lock();
      --running_;
      for (Call* call : batch) {
        call->done = true;
        // Under the mutex: once a waiter sees `done` it may return and end
        // its Call.
        if (call != &me) call->woken.notify_one();
      }
      WakeNextRunner();
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

std::vector<CoalescingBackend::Call*> CoalescingBackend::TakeBatch() {
  const std::size_t n = std::min(max_batch_, queue_.size());
  std::vector<Call*> batch(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
  for (Call* call : batch) call->taken = true;
  ShowQueue();
  return batch;
}

void CoalescingBackend::WakeNextRunner() {
  if (!queue_.empty() && running_ < runners_) queue_.front()->woken.notify_one();
}

void CoalescingBackend::ShowQueue() {
  if (metrics_ != nullptr) metrics_->SetUpsertsQueued(queue_.size());
}

void CoalescingBackend::Apply(const std::vector<Call*>& batch) {
  if (batch.size() == 1) {
    Call& call = *batch.front();
    try {
      call.result = inner_.Upsert(*call.record, call.deadline);
    } catch (...) {
      call.error = std::current_exception();
    }
    return;
  }
  std::vector<Record> records;
  records.reserve(batch.size());
  for (const Call* call : batch) records.push_back(*call->record);
  try {
    std::vector<UpsertResult> results = inner_.BatchUpsert(records, Earliest(batch));
    if (results.size() != batch.size()) {
      throw std::logic_error("BatchUpsert answered " + std::to_string(results.size()) +
                             " results for " + std::to_string(batch.size()) + " records");
    }
    for (std::size_t i = 0; i < batch.size(); ++i) batch[i]->result = std::move(results[i]);
  } catch (...) {
    // One record's trouble is not the others' answer: each goes again alone.
    for (Call* call : batch) call->alone = true;
  }
  if (metrics_ != nullptr) metrics_->OnCoalescedBatch(batch.size(), batch.front()->alone);
}

}  // namespace idres::api
