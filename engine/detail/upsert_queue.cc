#include "engine/detail/upsert_queue.h"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>

#include "base/thread.h"
#include "engine/errors.h"

namespace idres::detail {

struct UpsertQueue::Call {
  Call(Record r, const Deadline& d, UpsertCallback cb)
      : record(std::move(r)), deadline(d), done(std::move(cb)) {}
  Record record;
  Deadline deadline;
  UpsertCallback done;
  bool alone = false;  // a group of its failed: apply the record on its own
  bool retry = false;  // Apply() hands it back to be applied alone
  UpsertOutcome outcome;
};

namespace {

constexpr std::chrono::milliseconds kRetryAfterNoMemory{10};

constexpr const char* kExpiredInQueue =
    "the deadline passed while waiting for a database connection; nothing was written";
constexpr const char* kExpiredInGroup =
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

// `results` has one result per record of `records` records.
void RequireOnePerRecord(const std::vector<UpsertResult>& results, std::size_t records) {
  if (results.size() != records) {
    throw std::logic_error("the batch answered " + std::to_string(results.size()) +
                           " results for " + std::to_string(records) + " records");
  }
}

// The one result of a batch of one record.
UpsertResult Only(std::vector<UpsertResult> results) {
  RequireOnePerRecord(results, 1);
  return std::move(results.front());
}

}  // namespace

UpsertQueue::UpsertQueue(ApplyBatch apply, int runners, std::size_t max_records,
                         std::size_t max_identifiers, EngineObserver* observer)
    : apply_(std::move(apply)),
      runners_(static_cast<std::size_t>(std::max(1, runners))),
      max_records_(std::max<std::size_t>(1, max_records)),
      max_identifiers_(max_identifiers),
      observer_(observer) {}

UpsertQueue::~UpsertQueue() { Stop(); }

void UpsertQueue::StartThreads() {
  try {
    threads_.reserve(1 + runners_);
    if (threads_.empty()) {
      NameThread(threads_.emplace_back([this] { TimekeeperLoop(); }), "idres-deadlines");
    }
    while (threads_.size() < 1 + runners_) {
      NameThread(threads_.emplace_back([this] { RunnerLoop(); }), "idres-upsert");
    }
  } catch (...) {
    // With one runner every call is still answered; the next Submit()
    // tries to start the others again.
    if (threads_.size() < 2) throw;
  }
}

void UpsertQueue::Stop() {
  std::vector<std::thread> threads;
  {
    MutexLock lock(&mu_);
    stopping_ = true;
    threads = std::move(threads_);  // none starts once stopping_ is set
  }
  work_.NotifyAll();
  clock_.NotifyAll();
  for (auto& thread : threads) {
    if (thread.joinable()) thread.join();
  }
}

void UpsertQueue::Submit(Record record, const Deadline& deadline, UpsertCallback done) {
  auto call = std::make_unique<Call>(std::move(record), deadline, std::move(done));
  MutexLock lock(&mu_);
  if (stopping_) throw std::logic_error("UpsertQueue::Submit while it stops");
  if (threads_.size() < 1 + runners_) StartThreads();
  queue_.push_back(std::move(call));
  ShowQueue();
  if (idle_runners_ > 0) {
    // An idle runner takes the call at once, and Apply() checks its deadline.
    work_.NotifyOne();
  } else {
    // Under load every runner is busy and takes the call when it comes
    // round: no wake-up, no thread switch, unless the timekeeper must watch
    // a deadline earlier than the one it sleeps until.
    WakeTimekeeperFor(deadline.at());
  }
}

void UpsertQueue::WakeTimekeeperFor(std::optional<Deadline::Clock::time_point> at) {
  if (at && (!timekeeper_wakes_ || *at < *timekeeper_wakes_)) clock_.NotifyOne();
}

std::exception_ptr UpsertQueue::Expired(const Call& call) {
  // A call sent again after its group failed may have been stored by it.
  return std::make_exception_ptr(DeadlineError(call.alone ? kExpiredInGroup : kExpiredInQueue));
}

std::size_t UpsertQueue::Queued() const {
  MutexLock lock(&mu_);
  return queue_.size();
}

void UpsertQueue::RunnerLoop() {
  MutexLock lock(&mu_);
  for (;;) {
    if (queue_.empty()) {
      if (stopping_) return;  // only once every call is answered
      ++idle_runners_;
      work_.Wait(&mu_);
      --idle_runners_;
      continue;
    }
    Calls group;
    try {
      group = TakeGroup();
    } catch (...) {
      // No memory for a group: the oldest call gets the error, so that the
      // queue still moves.
      std::unique_ptr<Call> oldest = std::move(queue_.front());
      queue_.pop_front();
      ShowQueue();
      lock.Unlock();
      oldest->outcome.error = std::current_exception();
      Answer(*oldest);
      lock.Lock();
      continue;
    }
    // The calls left behind wait with no runner watching their deadlines.
    if (!queue_.empty()) WakeTimekeeperFor(EarliestAt(queue_));
    lock.Unlock();
    Calls again = Apply(std::move(group));
    lock.Lock();
    if (!again.empty()) Requeue(lock, std::move(again));
  }
}

void UpsertQueue::Requeue(MutexLock& lock, Calls again) {
  try {
    // Ahead of the calls that came later, each on its own.
    for (auto it = again.rbegin(); it != again.rend(); ++it) queue_.push_front(std::move(*it));
  } catch (...) {  // no memory to queue them: those not queued get the error
    const std::exception_ptr error = std::current_exception();
    lock.Unlock();
    for (auto& call : again) {
      if (!call) continue;
      call->outcome.error = error;
      Answer(*call);
    }
    lock.Lock();
  }
  ShowQueue();
  work_.NotifyAll();
  WakeTimekeeperFor(EarliestAt(queue_));
}

void UpsertQueue::TimekeeperLoop() {
  MutexLock lock(&mu_);
  while (!stopping_) {
    Calls expired;
    try {
      expired.reserve(queue_.size());
    } catch (...) {  // no memory now: look again soon
      clock_.WaitUntil(&mu_, Deadline::Clock::now() + kRetryAfterNoMemory);
      continue;
    }
    for (auto it = queue_.begin(); it != queue_.end();) {
      if (!(*it)->deadline.Passed()) {
        ++it;
        continue;
      }
      expired.push_back(std::move(*it));
      it = queue_.erase(it);
    }
    if (!expired.empty()) {
      ShowQueue();
      lock.Unlock();
      for (auto& call : expired) {
        try {
          call->outcome.error = Expired(*call);
        } catch (...) {
          call->outcome.error = std::current_exception();
        }
        Answer(*call);
      }
      lock.Lock();
      continue;  // the queue may have changed meanwhile
    }
    const auto next = EarliestAt(queue_);
    timekeeper_wakes_ = next;
    if (next) {
      clock_.WaitUntil(&mu_, *next);
    } else {
      clock_.Wait(&mu_);
    }
  }
}

UpsertQueue::Calls UpsertQueue::TakeGroup() {
  Calls group;
  group.reserve(max_records_);  // the one allocation: it throws before any call is taken
  std::size_t identifiers = 0;
  while (!queue_.empty()) {
    Call& call = *queue_.front();
    const std::size_t n = call.record.identifiers.size();
    if (!group.empty() &&
        (call.alone || group.size() >= max_records_ || identifiers + n > max_identifiers_)) {
      break;
    }
    group.push_back(std::move(queue_.front()));
    queue_.pop_front();
    identifiers += n;
    if (group.back()->alone) break;
  }
  ShowQueue();
  return group;
}

void UpsertQueue::ShowQueue() {
  if (observer_ != nullptr) observer_->OnUpsertsQueued(queue_.size());
}

void UpsertQueue::Answer(Call& call) {
  try {
    call.done(std::move(call.outcome));
  } catch (...) {  // a callback must not throw; the other calls still get theirs
  }
}

UpsertQueue::Calls UpsertQueue::Apply(Calls group) {
  Calls again;
  try {
    again.reserve(group.size());  // before any call is answered
    ApplyGroup(group);
  } catch (...) {  // e.g. no memory for the copies: every call gets the error
    for (auto& call : group) {
      call->retry = false;
      call->outcome.error = std::current_exception();
    }
  }
  for (auto& call : group) {
    if (call->retry) {
      call->retry = false;
      again.push_back(std::move(call));  // reserved: does not throw
    } else {
      Answer(*call);
    }
  }
  return again;
}

void UpsertQueue::ApplyGroup(const Calls& group) {
  // A call whose deadline passed before its turn never reaches the database.
  std::vector<Call*> live;
  for (const auto& call : group) {
    if (call->deadline.Passed()) {
      call->outcome.error = Expired(*call);
    } else {
      live.push_back(call.get());
    }
  }
  if (live.size() == 1) {
    Call& call = *live.front();
    try {
      CommittedResults ignored(1);
      call.outcome.result =
          Only(apply_(std::span<const Record>(&call.record, 1), call.deadline, ignored));
    } catch (...) {
      call.outcome.error = std::current_exception();
    }
  }
  if (live.size() > 1) {
    bool failed = false;
    CommittedResults committed(live.size());
    try {
      std::vector<Record> records;
      records.reserve(live.size());
      for (const Call* call : live) records.push_back(call->record);
      const auto earliest = EarliestAt(live);
      std::vector<UpsertResult> results =
          apply_(records, earliest ? Deadline::At(*earliest) : Deadline{}, committed);
      RequireOnePerRecord(results, live.size());
      for (std::size_t i = 0; i < live.size(); ++i) live[i]->outcome.result = std::move(results[i]);
    } catch (...) {
      failed = true;
      // One record's trouble is not the others' answer: a record stored by
      // a transaction that committed has its result, the others go again
      // alone while they have time. Whether the failed transaction stored a
      // record (a COMMIT whose answer was lost) is unknown, and a record out
      // of time cannot find out.
      for (std::size_t i = 0; i < live.size(); ++i) {
        Call* call = live[i];
        if (committed[i]) {
          call->outcome.result = std::move(*committed[i]);
        } else if (call->deadline.Passed()) {
          call->outcome.error = std::make_exception_ptr(DeadlineError(kExpiredInGroup));
        } else {
          call->alone = true;
          call->retry = true;
        }
      }
    }
    if (observer_ != nullptr) observer_->OnUpsertGroup(live.size(), failed);
  }
}

}  // namespace idres::detail
