// KafkaSettings: how `idres consume` and `idres changes --to-kafka` reach a
// Kafka (or Redpanda) cluster: --brokers and librdkafka's own client
// properties passed through as -X key=value (security.protocol,
// sasl.mechanism, sasl.username, ssl.ca.location, ...), applied after the
// defaults so a user may override any of them. Plain value.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace idres::batch {

struct KafkaSettings {
  std::string brokers;                                       // host:port[,host:port...]
  std::vector<std::pair<std::string, std::string>> options;  // -X key=value, in order

  // Adds one -X "key=value"; the reason when it is not of that form.
  std::optional<std::string> AddOption(const std::string& spec);
};

}  // namespace idres::batch
