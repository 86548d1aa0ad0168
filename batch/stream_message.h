// StreamMessage: one message read from a stream partition (a Kafka topic's
// partition), as `idres consume` hands it on, and the partition it came
// from. Plain values, no Kafka type; safe to copy between threads.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace idres::batch {

struct TopicPartition {
  std::string topic;
  std::int32_t partition = 0;
  auto operator<=>(const TopicPartition&) const = default;
  // "topic/partition", for logs and dead letters.
  std::string Name() const { return topic + "/" + std::to_string(partition); }
};

struct StreamMessage {
  TopicPartition from;
  std::int64_t offset = 0;
  std::string key;
  std::string value;
  std::vector<std::pair<std::string, std::string>> headers;
};

}  // namespace idres::batch
