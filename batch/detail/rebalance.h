// Rebalance: `idres consume`'s side of the group's partition assignment,
// called by librdkafka on the polling thread (docs/batch.md, "Why it holds
// under rebalances"). An assignment starts each partition at the position
// the store holds for it (none: its first message); a revocation waits
// until the partition's batch in flight has settled, drops what waits, and
// commits the stored positions to Kafka, before the partitions may go to
// another consumer. Eager and cooperative assignors alike. Also: reading a
// moved partition's position again and seeking there, and pausing fetching.
// Internal to batch/.
//
// Thread-safety: the polling thread's alone.
#pragma once

#include <librdkafka/rdkafkacpp.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "batch/consume_metrics.h"
#include "batch/partition_queues.h"
#include "batch/stream_applier.h"
#include "engine/engine.h"

namespace idres::batch::detail {

struct RebalanceContext {
  Engine& engine;
  PartitionQueues& queues;
  ConsumeMetrics& metrics;
  std::string group;
  StreamApplier* applier;     // its late positions, with positions_outside_tx
  bool positions_outside_tx;  // UNSAFE: see ApplierOptions
  std::function<bool()> stopping;
};

class Rebalance : public RdKafka::RebalanceCb {
 public:
  explicit Rebalance(RebalanceContext context) : c_(std::move(context)) {}

  void rebalance_cb(RdKafka::KafkaConsumer* consumer, RdKafka::ErrorCode err,
                    std::vector<RdKafka::TopicPartition*>& partitions) override;

  // Partitions found applied by another consumer: their positions read
  // again and fetching moved there. The reason when a seek failed (going on
  // could skip messages).
  std::optional<std::string> RereadMoved(RdKafka::KafkaConsumer& consumer);

  bool paused() const { return paused_; }
  // Pauses or resumes fetching on every assigned partition.
  void SetPaused(RdKafka::KafkaConsumer& consumer, bool paused);

 private:
  void Assign(RdKafka::KafkaConsumer& consumer, std::vector<RdKafka::TopicPartition*>& parts);
  void Revoke(RdKafka::KafkaConsumer& consumer, std::vector<RdKafka::TopicPartition*>& parts);
  // The stored positions of `parts` (absent: none), read again while the
  // database is away; nullopt once stopping.
  std::optional<std::map<TopicPartition, std::int64_t>> Stored(
      const std::vector<TopicPartition>& parts);

  RebalanceContext c_;
  bool paused_ = false;
};

// Commits `positions` as Kafka's offsets (lag monitoring only); failures
// are logged.
void CommitOffsets(RdKafka::KafkaConsumer& consumer,
                   const std::map<TopicPartition, std::int64_t>& positions, bool sync);

}  // namespace idres::batch::detail
