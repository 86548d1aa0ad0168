#include "batch/partition_queues.h"

#include <algorithm>
#include <utility>

namespace idres::batch {

void PartitionQueues::Assign(const TopicPartition& tp, std::optional<std::int64_t> stored) {
  MutexLock lock(&mutex_);
  State& s = parts_[tp];
  buffered_ -= s.queued.size();
  s = State{};
  s.stored = stored;
  s.next = stored.value_or(-1);
  s.generation = ++generations_;
}

std::optional<std::int64_t> PartitionQueues::Revoke(const TopicPartition& tp) {
  MutexLock lock(&mutex_);
  auto it = parts_.find(tp);
  if (it == parts_.end()) return std::nullopt;
  // Take() skips it and Push() drops for it from now on; the batch in
  // flight still settles (its position is the one to hand on).
  it->second.rereading = true;
  while (it->second.busy) changed_.Wait(&mutex_);
  const std::optional<std::int64_t> stored = it->second.stored;
  buffered_ -= it->second.queued.size();
  parts_.erase(it);
  std::erase(moved_, tp);
  return stored;
}

bool PartitionQueues::Push(StreamMessage message) {
  MutexLock lock(&mutex_);
  auto it = parts_.find(message.from);
  if (it == parts_.end() || it->second.rereading) return false;
  State& s = it->second;
  if (s.next >= 0 && message.offset < s.next) return false;
  s.next = message.offset + 1;
  const TopicPartition tp = message.from;
  s.queued.push_back(std::move(message));
  ++buffered_;
  MakeReady(tp, s);
  return true;
}

std::optional<PartitionBatch> PartitionQueues::Take() {
  MutexLock lock(&mutex_);
  for (;;) {
    while (!stopped_ && ready_.empty()) changed_.Wait(&mutex_);
    if (stopped_) return std::nullopt;
    const TopicPartition tp = ready_.front();
    ready_.pop_front();
    auto it = parts_.find(tp);
    if (it == parts_.end()) continue;
    State& s = it->second;
    s.ready = false;
    if (s.busy || s.rereading || s.queued.empty()) continue;
    PartitionBatch batch{tp, s.generation, s.stored, {}};
    const std::size_t n = std::min(max_batch_, s.queued.size());
    batch.messages.assign(std::make_move_iterator(s.queued.begin()),
                          std::make_move_iterator(s.queued.begin() + n));
    s.queued.erase(s.queued.begin(), s.queued.begin() + n);
    buffered_ -= n;
    s.busy = true;
    return batch;
  }
}

void PartitionQueues::Applied(const PartitionBatch& batch) {
  MutexLock lock(&mutex_);
  State* s = Find(batch.from, batch.generation);
  if (s == nullptr) return;
  s->busy = false;
  s->stored = batch.End();
  MakeReady(batch.from, *s);
  changed_.NotifyAll();
}

void PartitionQueues::PutBack(PartitionBatch batch) {
  MutexLock lock(&mutex_);
  State* s = Find(batch.from, batch.generation);
  if (s == nullptr) return;
  s->busy = false;
  buffered_ += batch.messages.size();
  s->queued.insert(s->queued.begin(), std::make_move_iterator(batch.messages.begin()),
                   std::make_move_iterator(batch.messages.end()));
  MakeReady(batch.from, *s);
  changed_.NotifyAll();
}

void PartitionQueues::Moved(const PartitionBatch& batch) {
  MutexLock lock(&mutex_);
  State* s = Find(batch.from, batch.generation);
  if (s == nullptr) return;
  s->busy = false;
  buffered_ -= s->queued.size();
  s->queued.clear();
  s->stored.reset();
  s->rereading = true;
  moved_.push_back(batch.from);
  changed_.NotifyAll();
}

std::vector<TopicPartition> PartitionQueues::TakeMoved() {
  MutexLock lock(&mutex_);
  return std::exchange(moved_, {});
}

void PartitionQueues::Reread(const TopicPartition& tp, std::optional<std::int64_t> stored) {
  MutexLock lock(&mutex_);
  auto it = parts_.find(tp);
  if (it == parts_.end() || it->second.busy) return;
  State& s = it->second;
  s.stored = stored;
  s.next = stored.value_or(-1);
  s.rereading = false;
  s.generation = ++generations_;
}

std::size_t PartitionQueues::Buffered() const {
  MutexLock lock(&mutex_);
  return buffered_;
}

std::map<TopicPartition, std::int64_t> PartitionQueues::StoredPositions() const {
  MutexLock lock(&mutex_);
  std::map<TopicPartition, std::int64_t> out;
  for (const auto& [tp, s] : parts_) {
    if (s.stored) out[tp] = *s.stored;
  }
  return out;
}

void PartitionQueues::Stop() {
  MutexLock lock(&mutex_);
  stopped_ = true;
  changed_.NotifyAll();
}

void PartitionQueues::MakeReady(const TopicPartition& tp, State& s) {
  if (s.ready || s.busy || s.rereading || s.queued.empty()) return;
  s.ready = true;
  ready_.push_back(tp);
  changed_.NotifyAll();
}

PartitionQueues::State* PartitionQueues::Find(const TopicPartition& tp, std::uint64_t generation) {
  auto it = parts_.find(tp);
  if (it == parts_.end() || it->second.generation != generation) return nullptr;
  return &it->second;
}

}  // namespace idres::batch
