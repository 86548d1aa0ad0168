#include "api/coalescing_backend.h"

#include <algorithm>
#include <exception>
#include <future>
#include <stdexcept>
#include <string>

#include "engine/errors.h"

namespace idres::api {

struct CoalescingBackend::Call {
  Call(Record r, const Deadline& d, UpsertCallback cb)
      : record(std::move(r)), deadline(d), done(std::move(cb)) {}
  Record record;
  Deadline deadline;
  UpsertCallback done;
  bool alone = false;  // a batch of its failed: apply the record on its own
  UpsertOutcome outcome;
};

namespace {

constexpr const char* kExpiredInQueue =
    "the deadline passed while waiting for a database connection; nothing was written";
constexpr const char* kExpiredInBatch =
    "the deadline passed while this upsert was applied together with others, and that "
    "transaction failed; it may or may not have been stored";

// The earliest deadline of `calls`; unset when none has one.
template <typename Calls>
Deadline Earliest(const Calls& calls) {
  Deadline earliest;
  for (const auto* call : calls) {
    const auto at = call->deadline.at();
    if (at && (!earliest.IsSet() || *at < *earliest.at())) earliest = call->deadline;
  }
  return earliest;
}

}  // namespace

CoalescingBackend::CoalescingBackend(IdentityBackend& inner, int runners, std::size_t max_batch,
                                     std::size_t max_batch_identifiers, Metrics* metrics)
    : inner_(inner),
      max_batch_(std::max<std::size_t>(1, max_batch)),
      max_batch_identifiers_(max_batch_identifiers),
      metrics_(metrics) {
  try {
    threads_.emplace_back([this] { TimekeeperLoop(); });
    for (int i = 0; i < std::max(1, runners); ++i) threads_.emplace_back([this] { RunnerLoop(); });
  } catch (...) {
    Stop();
    throw;
  }
}

CoalescingBackend::~CoalescingBackend() { Stop(); }

void CoalescingBackend::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  work_.notify_all();
  clock_.notify_all();
  for (auto& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

void CoalescingBackend::Submit(Record record, const Deadline& deadline, UpsertCallback done) {
  auto call = std::make_unique<Call>(std::move(record), deadline, std::move(done));
  std::lock_guard lock(mu_);
  queue_.push_back(std::move(call));
  ShowQueue();
  // Under load every runner is busy and takes the call when it comes round:
  // no wake-up, no thread switch.
  if (idle_runners_ > 0) work_.notify_one();
  const auto at = deadline.at();
  if (at && (!timekeeper_wakes_ || *at < *timekeeper_wakes_)) clock_.notify_one();
}

UpsertResult CoalescingBackend::Upsert(const Record& record, const Deadline& deadline) {
  // Shared with the callback, which may still be returning from set_value
  // when this thread has its answer.
  auto answer = std::make_shared<std::promise<UpsertOutcome>>();
  auto outcome = answer->get_future();
  Submit(record, deadline, [answer](UpsertOutcome o) { answer->set_value(std::move(o)); });
  UpsertOutcome o = outcome.get();
  if (o.error) std::rethrow_exception(o.error);
  return std::move(o.result);
}

std::size_t CoalescingBackend::Queued() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

void CoalescingBackend::RunnerLoop() {
  std::unique_lock lock(mu_);
  for (;;) {
    if (queue_.empty()) {
      if (stopping_) return;  // only once every call is answered
      ++idle_runners_;
      work_.wait(lock);
      --idle_runners_;
      continue;
    }
    Calls batch = TakeBatch();
    lock.unlock();
    Calls again = Apply(std::move(batch));
    lock.lock();
    if (again.empty()) continue;
    // Ahead of the calls that came later, each on its own.
    for (auto it = again.rbegin(); it != again.rend(); ++it) queue_.push_front(std::move(*it));
    ShowQueue();
    work_.notify_all();
  }
}

void CoalescingBackend::TimekeeperLoop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    Calls expired;
    std::optional<Deadline::Clock::time_point> next;
    for (auto it = queue_.begin(); it != queue_.end();) {
      if ((*it)->deadline.Passed()) {
        expired.push_back(std::move(*it));
        it = queue_.erase(it);
        continue;
      }
      const auto at = (*it)->deadline.at();
      if (at && (!next || *at < *next)) next = at;
      ++it;
    }
    if (!expired.empty()) {
      ShowQueue();
      lock.unlock();
      for (auto& call : expired) {
        call->outcome.error = std::make_exception_ptr(DeadlineError(kExpiredInQueue));
      }
      Answer(std::move(expired));
      lock.lock();
      continue;  // the queue may have changed meanwhile
    }
    timekeeper_wakes_ = next;
    if (next) {
      clock_.wait_until(lock, *next);
    } else {
      clock_.wait(lock);
    }
  }
}

CoalescingBackend::Calls CoalescingBackend::TakeBatch() {
  Calls batch;
  std::size_t identifiers = 0;
  while (!queue_.empty()) {
    Call& call = *queue_.front();
    const std::size_t n = call.record.identifiers.size();
    if (!batch.empty() &&
        (call.alone || batch.size() >= max_batch_ || identifiers + n > max_batch_identifiers_)) {
      break;
    }
    batch.push_back(std::move(queue_.front()));
    queue_.pop_front();
    identifiers += n;
    if (batch.back()->alone) break;
  }
  ShowQueue();
  return batch;
}

void CoalescingBackend::ShowQueue() {
  if (metrics_ != nullptr) metrics_->SetUpsertsQueued(queue_.size());
}

void CoalescingBackend::Answer(Calls calls) {
  for (auto& call : calls) {
    try {
      call->done(std::move(call->outcome));
    } catch (...) {  // a callback must not throw; the others still get theirs
    }
  }
}

CoalescingBackend::Calls CoalescingBackend::Apply(Calls batch) {
  // A call whose deadline passed before its turn never reaches the database.
  std::vector<Call*> live;
  for (auto& call : batch) {
    if (call->deadline.Passed()) {
      call->outcome.error = std::make_exception_ptr(DeadlineError(kExpiredInQueue));
    } else {
      live.push_back(call.get());
    }
  }
  if (live.size() == 1) {
    Call& call = *live.front();
    try {
      call.outcome.result = inner_.Upsert(call.record, call.deadline);
    } catch (...) {
      call.outcome.error = std::current_exception();
    }
  }
  std::vector<Call*> retry;
  if (live.size() > 1) {
    bool failed = false;
    try {
      std::vector<Record> records;
      records.reserve(live.size());
      for (const Call* call : live) records.push_back(call->record);
      std::vector<UpsertResult> results = inner_.BatchUpsert(records, Earliest(live));
      if (results.size() != live.size()) {
        throw std::logic_error("BatchUpsert answered " + std::to_string(results.size()) +
                               " results for " + std::to_string(live.size()) + " records");
      }
      for (std::size_t i = 0; i < live.size(); ++i) live[i]->outcome.result = std::move(results[i]);
    } catch (...) {
      failed = true;
      // One record's trouble is not the others' answer: each goes again
      // alone while it has time. Whether the failed transaction stored a
      // record is unknown (a COMMIT whose answer was lost, or the batch's
      // earlier chunks), and a record out of time cannot find out.
      for (Call* call : live) {
        if (call->deadline.Passed()) {
          call->outcome.error = std::make_exception_ptr(DeadlineError(kExpiredInBatch));
        } else {
          call->alone = true;
          retry.push_back(call);
        }
      }
    }
    if (metrics_ != nullptr) metrics_->OnCoalescedBatch(live.size(), failed);
  }
  Calls again;
  Calls answered;
  for (auto& call : batch) {
    const bool retried = std::find(retry.begin(), retry.end(), call.get()) != retry.end();
    (retried ? again : answered).push_back(std::move(call));
  }
  Answer(std::move(answered));
  return again;
}

}  // namespace idres::api
