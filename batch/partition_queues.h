// PartitionQueues: what `idres consume` holds of the partitions assigned to
// it, between the thread that polls Kafka and the workers that apply. Each
// partition's messages wait in offset order; a worker takes a batch of one
// partition and no other worker takes from that partition until the batch
// is settled (applied, put back, or found applied elsewhere), so a
// partition is applied in order while partitions are applied in parallel.
// A revocation waits for the batch in flight, then drops what waits: the
// position the store holds is where the next owner starts.
//
// Thread-safety: all methods may be called from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "base/mutex.h"
#include "batch/stream_message.h"

namespace idres::batch {

struct PartitionBatch {
  TopicPartition from;
  std::uint64_t generation = 0;         // of the partition's state it was taken from
  std::optional<std::int64_t> stored;   // the position stored before it (none yet: nullopt)
  std::vector<StreamMessage> messages;  // in offset order; never empty
  // The position after its last message.
  std::int64_t End() const { return messages.back().offset + 1; }
};

class PartitionQueues {
 public:
  explicit PartitionQueues(std::size_t max_batch) : max_batch_(max_batch) {}

  // `tp` is this consumer's now, with position `stored` in the store.
  void Assign(const TopicPartition& tp, std::optional<std::int64_t> stored) EXCLUDES(mutex_);

  // `tp` is no longer this consumer's: waits until no batch of it is in
  // flight, drops what waits, and returns the position the store holds
  // (nullopt: none, or unknown after a move). Not assigned: nullopt.
  std::optional<std::int64_t> Revoke(const TopicPartition& tp) EXCLUDES(mutex_);

  // Queues a message of an assigned partition. False (dropped) when the
  // partition is not assigned, is being read again, or the message lies
  // before the partition's next offset (covered already).
  bool Push(StreamMessage message) EXCLUDES(mutex_);

  // Blocks until a partition with no batch in flight has messages, and takes
  // up to max_batch of them; nullopt once stopped.
  std::optional<PartitionBatch> Take() EXCLUDES(mutex_);

  // Settles a batch from Take(): applied and its end stored; not applied
  // (its messages go back in front, to be taken again); or found applied by
  // another consumer (what waits is dropped, and the partition waits for
  // Reread() with the position the store now holds).
  void Applied(const PartitionBatch& batch) EXCLUDES(mutex_);
  void PutBack(PartitionBatch batch) EXCLUDES(mutex_);
  void Moved(const PartitionBatch& batch) EXCLUDES(mutex_);

  // The partitions Moved() since the last call, still assigned.
  std::vector<TopicPartition> TakeMoved() EXCLUDES(mutex_);
  // A moved partition goes on from `stored`, read from the store again.
  void Reread(const TopicPartition& tp, std::optional<std::int64_t> stored) EXCLUDES(mutex_);

  // Messages waiting (not those in flight).
  std::size_t Buffered() const EXCLUDES(mutex_);
  // The stored position of each assigned partition that has one.
  std::map<TopicPartition, std::int64_t> StoredPositions() const EXCLUDES(mutex_);

  // Take() returns nullopt from now on.
  void Stop() EXCLUDES(mutex_);

 private:
  struct State {
    std::optional<std::int64_t> stored;
    std::int64_t next = -1;  // the offset after the last message queued; -1: none yet
    std::deque<StreamMessage> queued;
    std::uint64_t generation = 0;
    bool busy = false;       // a batch is in flight
    bool ready = false;      // listed in ready_
    bool rereading = false;  // moved: waits for Reread()
  };
  // Lists `tp` for the workers when it has messages and nothing in flight.
  void MakeReady(const TopicPartition& tp, State& s) REQUIRES(mutex_);
  State* Find(const TopicPartition& tp, std::uint64_t generation) REQUIRES(mutex_);

  const std::size_t max_batch_;
  mutable Mutex mutex_;
  CondVar changed_;
  std::map<TopicPartition, State> parts_ GUARDED_BY(mutex_);
  std::deque<TopicPartition> ready_ GUARDED_BY(mutex_);
  std::vector<TopicPartition> moved_ GUARDED_BY(mutex_);
  std::size_t buffered_ GUARDED_BY(mutex_) = 0;
  std::uint64_t generations_ GUARDED_BY(mutex_) = 0;
  bool stopped_ GUARDED_BY(mutex_) = false;
};

}  // namespace idres::batch
