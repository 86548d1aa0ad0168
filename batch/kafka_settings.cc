#include "batch/kafka_settings.h"

namespace idres::batch {

std::optional<std::string> KafkaSettings::AddOption(const std::string& spec) {
  const auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0) {
    return "-X " + spec + ": expected key=value (a librdkafka property)";
  }
  options.emplace_back(spec.substr(0, eq), spec.substr(eq + 1));
  return std::nullopt;
}

}  // namespace idres::batch
