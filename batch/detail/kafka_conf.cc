#include "batch/detail/kafka_conf.h"

#include <stdexcept>

namespace idres::batch::detail {

void Set(RdKafka::Conf& conf, const std::string& key, const std::string& value) {
  std::string error;
  if (conf.set(key, value, error) != RdKafka::Conf::CONF_OK) {
    throw std::invalid_argument("Kafka property " + key + ": " + error);
  }
}

std::unique_ptr<RdKafka::Conf> MakeConf(const KafkaSettings& settings, const Properties& defaults) {
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  if (settings.brokers.empty()) throw std::invalid_argument("--brokers is required");
  Set(*conf, "bootstrap.servers", settings.brokers);
  for (const auto& [key, value] : defaults) Set(*conf, key, value);
  for (const auto& [key, value] : settings.options) Set(*conf, key, value);
  return conf;
}

}  // namespace idres::batch::detail
