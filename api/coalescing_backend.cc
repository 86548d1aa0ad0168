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
  bool retry = false;  // Apply() hands it back to be applied alone
  UpsertOutcome outcome;
};

namespace {

constexpr std::chrono::milliseconds kRetryAfterNoMemory{10};

constexpr const char* kExpiredInQueue =
    "the deadline passed while waiting for a database connection; nothing was written";
constexpr const char* kExpiredInBatch =
    "the deadline passed while this upsert was applied together with others, and that "
    "transaction failed; it may or may not have been stored";

// The earliest deadline of `calls`; unset when none has one.
template <typename Calls>
std::optional<Deadline::Clock::time_point> EarliestAt(const Calls& calls) {
  std::optional<Deadline::Clock::time_point> earliest;
  for (const auto& call : calls) {
    const auto at = call->deadline.at();
    if (at && (!earliest || *at < *earliest)) earliest = at;
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
  if (stopping_) throw std::logic_error("CoalescingBackend::Submit while it stops");
  queue_.push_back(std::move(call));
  ShowQueue();
  if (idle_runners_ > 0) {
    // An idle runner takes the call at once, and Apply() checks its deadline.
    work_.notify_one();
  } else {
    // Under load every runner is busy and takes the call when it comes
    // round: no wake-up, no thread switch, unless the timekeeper must watch
    // a deadline earlier than the one it sleeps until.
    WakeTimekeeperFor(deadline.at());
  }
}

void CoalescingBackend::WakeTimekeeperFor(std::optional<Deadline::Clock::time_point> at) {
  if (at && (!timekeeper_wakes_ || *at < *timekeeper_wakes_)) clock_.notify_one();
}

std::exception_ptr CoalescingBackend::Expired(const Call& call) {
  // A call sent again after its batch failed may have been stored by it.
  return std::make_exception_ptr(DeadlineError(call.alone ? kExpiredInBatch : kExpiredInQueue));
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
    Calls batch;
    try {
      batch = TakeBatch();
    } catch (...) {
      // No memory for a batch: the oldest call gets the error, so that the
      // queue still moves.
      std::unique_ptr<Call> oldest = std::move(queue_.front());
      queue_.pop_front();
      ShowQueue();
      lock.unlock();
      oldest->outcome.error = std::current_exception();
      Answer(*oldest);
      lock.lock();
      continue;
    }
    // The calls left behind wait with no runner watching their deadlines.
    if (!queue_.empty()) WakeTimekeeperFor(EarliestAt(queue_));
    lock.unlock();
    Calls again = Apply(std::move(batch));
    lock.lock();
    if (!again.empty()) Requeue(lock, std::move(again));
  }
}

void CoalescingBackend::Requeue(std::unique_lock<std::mutex>& lock, Calls again) {
  try {
    // Ahead of the calls that came later, each on its own.
    for (auto it = again.rbegin(); it != again.rend(); ++it) queue_.push_front(std::move(*it));
  } catch (...) {  // no memory to queue them: those not queued get the error
    const std::exception_ptr error = std::current_exception();
    lock.unlock();
    for (auto& call : again) {
      if (!call) continue;
      call->outcome.error = error;
      Answer(*call);
    }
    lock.lock();
  }
  ShowQueue();
  work_.notify_all();
  WakeTimekeeperFor(EarliestAt(queue_));
}

void CoalescingBackend::TimekeeperLoop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    Calls expired;
    try {
      expired.reserve(queue_.size());
    } catch (...) {  // no memory now: look again soon
      clock_.wait_for(lock, kRetryAfterNoMemory);
      continue;
    }
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
        try {
          call->outcome.error = Expired(*call);
        } catch (...) {
          call->outcome.error = std::current_exception();
        }
        Answer(*call);
      }
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
  batch.reserve(max_batch_);  // the one allocation: it throws before any call is taken
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

void CoalescingBackend::Answer(Call& call) {
  try {
    call.done(std::move(call.outcome));
  } catch (...) {  // a callback must not throw; the other calls still get theirs
  }
}

CoalescingBackend::Calls CoalescingBackend::Apply(Calls batch) {
  Calls again;
  try {
    again.reserve(batch.size());  // before any call is answered
    ApplyBatch(batch);
  } catch (...) {  // e.g. no memory for the copies: every call gets the error
    for (auto& call : batch) {
      call->retry = false;
      call->outcome.error = std::current_exception();
    }
  }
  for (auto& call : batch) {
    if (call->retry) {
      call->retry = false;
      again.push_back(std::move(call));  // reserved: does not throw
    } else {
      Answer(*call);
    }
  }
  return again;
}

void CoalescingBackend::ApplyBatch(const Calls& batch) {
  // A call whose deadline passed before its turn never reaches the database.
  std::vector<Call*> live;
  for (const auto& call : batch) {
    if (call->deadline.Passed()) {
      call->outcome.error = Expired(*call);
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
  if (live.size() > 1) {
    bool failed = false;
    try {
      std::vector<Record> records;
      records.reserve(live.size());
      for (const Call* call : live) records.push_back(call->record);
      const auto earliest = EarliestAt(live);
      std::vector<UpsertResult> results =
          inner_.BatchUpsert(records, earliest ? Deadline::At(*earliest) : Deadline{});
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
          call->retry = true;
        }
      }
    }
    if (metrics_ != nullptr) metrics_->OnCoalescedBatch(live.size(), failed);
  }
}

}  // namespace idres::api
