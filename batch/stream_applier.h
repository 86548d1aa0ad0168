// StreamApplier: applies one batch of a partition's messages (from
// batch/partition_queues.h) for `idres consume`: each message parsed into a
// record; what is no record, and every record the engine refuses whole, to
// the dead letters (durable before any position past it is stored); the
// records through Engine::BatchUpsert with the partition's StreamPosition,
// so each chunk's transaction stores its records and the position after
// them together (docs/batch.md, "Streams: idres consume and the change feed to
// Kafka"). No Kafka type here: it can be run on a database alone.
//
// Thread-safety: Apply() may be called from every worker at once, for
// different partitions.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "base/mutex.h"
#include "batch/consume_metrics.h"
#include "batch/partition_queues.h"
#include "batch/stream_dead_letters.h"
#include "batch/stream_record.h"
#include "engine/engine.h"

namespace idres::batch {

struct ApplierOptions {
  std::string group;  // the consumer group the positions are stored for
  StreamFormat format = StreamFormat::kNdjson;
  StreamDefaults defaults;
  // UNSAFE, for the test that shows what the positions in the records'
  // transaction protect: records are applied without a position, and the
  // positions stored by transactions of their own once a second
  // (StoreLatePositions), as a consumer that commits its offsets after
  // loading does. A crash between the two applies records twice.
  bool positions_outside_tx = false;
};

class StreamApplier {
 public:
  StreamApplier(Engine& engine, StreamDeadLetters& dead_letters, ConsumeMetrics& metrics,
                ApplierOptions options);

  // Applies `batch`, which continues from the position batch.stored. True
  // when applied (the store holds batch.End()); false when another consumer
  // stored another position for the partition meanwhile (nothing of this
  // batch past that was written). Throws EngineError from the engine, and
  // std::runtime_error when dead letters cannot be delivered (nothing of
  // the batch past them was stored).
  bool Apply(const PartitionBatch& batch);

  // With positions_outside_tx: stores the positions of the batches applied
  // since the last call. Otherwise nothing to do.
  void StoreLatePositions() EXCLUDES(mutex_);

 private:
  struct Late {
    std::optional<std::int64_t> from;  // what the store holds
    std::int64_t end = 0;              // what it should
  };
  bool ApplyUnsafe(const PartitionBatch& batch, const std::vector<Record>& records,
                   std::vector<UpsertResult>& results) EXCLUDES(mutex_);

  Engine& engine_;
  StreamDeadLetters& dead_letters_;
  ConsumeMetrics& metrics_;
  const ApplierOptions options_;
  Mutex mutex_;
  std::map<TopicPartition, Late> late_ GUARDED_BY(mutex_);
};

}  // namespace idres::batch
