// KafkaProducer: messages out to Kafka for `idres consume`'s dead-letter
// topic and `idres changes --to-kafka`, on librdkafka (kept out of this
// header). Idempotent (enable.idempotence): the broker drops the duplicates
// of its own retries and keeps each partition in the order produced, and a
// message is retried until delivered (message.timeout.ms 0), so what
// reached a partition is always a prefix of what was produced to it.
//
// Thread-safety: Produce() and Flush() may be called from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "batch/kafka_settings.h"

namespace idres::batch {

using KafkaHeaders = std::vector<std::pair<std::string, std::string>>;

class KafkaProducer {
 public:
  // Throws std::invalid_argument with the reason for bad settings.
  explicit KafkaProducer(const KafkaSettings& settings);
  ~KafkaProducer();
  KafkaProducer(const KafkaProducer&) = delete;
  KafkaProducer& operator=(const KafkaProducer&) = delete;

  // Queues a message for `topic`'s `partition` (-1: by the key, as Kafka's
  // Java client partitions, murmur2). Waits while librdkafka's queue is
  // full. Throws std::runtime_error once a delivery failed fatally.
  void Produce(const std::string& topic, std::int32_t partition, std::string_view key,
               std::string_view value, const KafkaHeaders& headers);

  // Returns once every message produced so far is acknowledged by the
  // broker; throws std::runtime_error naming the first that failed.
  void Flush();

  // How many partitions `topic` has (created by the broker's auto-create
  // when it is missing and the broker allows). Throws std::runtime_error.
  std::int32_t PartitionCount(const std::string& topic);

  // The partition Produce() with -1 picks for `key` among `partitions`.
  static std::int32_t PartitionFor(std::string_view key, std::int32_t partitions);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace idres::batch
