// KafkaProducer: messages out to Kafka for `idres consume`'s dead-letter
// topic and `idres changes --to-kafka`, on librdkafka (kept out of this
// header). Idempotent (enable.idempotence): the broker drops the duplicates
// of its own retries and keeps each partition in the order produced, and a
// message is retried until delivered (message.timeout.ms 0), so what
// reached a partition is always a prefix of what was produced to it. A
// delivery therefore fails only for good (KafkaDeliveryError).
//
// Thread-safety: Produce() and Flush() may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "batch/kafka_settings.h"

namespace idres::batch {

using KafkaHeaders = std::vector<std::pair<std::string, std::string>>;

// A message the broker or librdkafka will never take (larger than the
// topic allows, not authorized, the idempotent producer fenced). Once a
// delivery failed, every later Produce() and Flush() throws it too: the
// failed message may have been any thread's.
class KafkaDeliveryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class KafkaProducer {
 public:
  // Throws std::invalid_argument with the reason for bad settings.
  explicit KafkaProducer(const KafkaSettings& settings);
  ~KafkaProducer();
  KafkaProducer(const KafkaProducer&) = delete;
  KafkaProducer& operator=(const KafkaProducer&) = delete;

  // Queues a message for `topic`'s `partition` (-1: by the key, as Kafka's
  // Java client partitions, murmur2). Waits while librdkafka's queue is
  // full. Throws KafkaDeliveryError for a message that cannot be queued or
  // once any delivery failed.
  void Produce(const std::string& topic, std::int32_t partition, std::string_view key,
               std::string_view value, const KafkaHeaders& headers);

  // Returns once every message produced so far is acknowledged by the
  // broker; throws KafkaDeliveryError naming the first that failed, or
  // std::runtime_error when `stop` is raised first (the messages may still
  // be delivered).
  void Flush(const std::atomic<bool>* stop = nullptr);

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
