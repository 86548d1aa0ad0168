// ConsumeMetrics: what `idres consume` counts, in Prometheus' text format
// for its --metrics-listen endpoint (batch/metrics_listener.h):
//   idres_consume_messages_total{topic}         messages taken from Kafka and settled
//   idres_consume_records_applied_total{topic}  records the store took (whole or in part)
//   idres_consume_records_partial_total{topic}  of those, records with identifiers rejected
//   idres_consume_dead_letters_total{topic}     messages sent to the dead letters
//   idres_consume_batch_size                    histogram of messages per applied batch
//   idres_consume_position{topic,partition}     the position stored (next offset to apply)
//   idres_consume_lag{topic,partition}          the partition's end offset minus that position
//   idres_consume_buffered                      messages waiting in memory
//
// Thread-safety: all methods may be called from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "base/mutex.h"
#include "batch/stream_message.h"

namespace idres::batch {

class ConsumeMetrics {
 public:
  // One applied batch of `topic`.
  void OnBatch(const std::string& topic, std::uint64_t messages, std::uint64_t applied,
               std::uint64_t partial, std::uint64_t dead_letters) EXCLUDES(mutex_);
  // Where a partition stands: its stored position and its end offset.
  void OnPosition(const TopicPartition& tp, std::int64_t position, std::int64_t end)
      EXCLUDES(mutex_);
  // A partition this consumer no longer holds.
  void Forget(const TopicPartition& tp) EXCLUDES(mutex_);
  void OnBuffered(std::uint64_t messages) EXCLUDES(mutex_);

  std::string Text() const EXCLUDES(mutex_);

  static constexpr std::array<std::uint64_t, 10> kBatchBuckets{1,  2,   5,   10,  20,
                                                               50, 100, 200, 500, 1000};

 private:
  struct TopicCounts {
    std::uint64_t messages = 0, applied = 0, partial = 0, dead_letters = 0;
  };
  struct Where {
    std::int64_t position = 0, end = 0;
  };
  mutable Mutex mutex_;
  std::map<std::string, TopicCounts> topics_ GUARDED_BY(mutex_);
  std::map<TopicPartition, Where> partitions_ GUARDED_BY(mutex_);
  std::array<std::uint64_t, kBatchBuckets.size()> batch_buckets_ GUARDED_BY(mutex_){};
  std::uint64_t batches_ GUARDED_BY(mutex_) = 0;
  std::uint64_t batch_sum_ GUARDED_BY(mutex_) = 0;
  std::uint64_t buffered_ GUARDED_BY(mutex_) = 0;
};

}  // namespace idres::batch
