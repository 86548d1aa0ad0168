// RunConsume: `idres consume` (docs/batch.md, "Streams: idres consume and the
// change feed to Kafka"): joins consumer group `group` on `topics`, and
// applies every message of the partitions assigned to it exactly once:
// at every assignment each partition starts at the position the store holds
// for it, and each batch's transaction stores its records with the position
// after them (batch/stream_applier.h). Partitions are applied in parallel
// by `workers` threads, each in offset order; at most about `max_buffered`
// messages wait in memory (fetching pauses past it). A revocation waits for
// the batches in flight, so their positions are stored before another
// consumer gets the partitions. Kafka's committed offsets are written from
// the stored positions, for lag monitoring only.
//
// Thread-safety: one run per process; `stop` may be raised from anywhere.
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "batch/consume_metrics.h"
#include "batch/kafka_settings.h"
#include "batch/stream_applier.h"
#include "batch/stream_dead_letters.h"
#include "engine/engine.h"

namespace idres::batch {

struct ConsumeOptions {
  KafkaSettings kafka;
  std::vector<std::string> topics;
  ApplierOptions applier;  // the group, the format, the defaults
  int workers = 4;
  std::size_t batch = 500;           // most messages of one partition per BatchUpsert
  std::size_t max_buffered = 10000;  // messages waiting in memory before fetching pauses
  const std::atomic<bool>* stop = nullptr;
};

struct ConsumeRun {
  std::optional<std::string> error;  // why it ended before being stopped
};

// Runs until `*options.stop` is raised (then: the batches in flight finish,
// Kafka's offsets are committed, the group is left) or a failure that
// retrying cannot mend (a bad setting, a store without the schema, a
// librdkafka fatal error). The database or the brokers going away is
// waited out. Throws std::invalid_argument for bad Kafka settings.
ConsumeRun RunConsume(const ConsumeOptions& options, Engine& engine,
                      StreamDeadLetters& dead_letters, ConsumeMetrics& metrics);

}  // namespace idres::batch
