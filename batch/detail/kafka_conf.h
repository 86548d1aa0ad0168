// librdkafka configurations built from KafkaSettings: the defaults idres
// needs, then the user's -X properties over them. Internal to batch/.
#pragma once

#include <librdkafka/rdkafkacpp.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "batch/kafka_settings.h"

namespace idres::batch::detail {

using Properties = std::vector<std::pair<std::string, std::string>>;

// A global configuration with bootstrap.servers, `defaults`, then the
// settings' -X options. Throws std::invalid_argument naming a property
// librdkafka refuses, with its reason.
std::unique_ptr<RdKafka::Conf> MakeConf(const KafkaSettings& settings, const Properties& defaults);

// Sets one property; throws std::invalid_argument with librdkafka's reason.
void Set(RdKafka::Conf& conf, const std::string& key, const std::string& value);

}  // namespace idres::batch::detail
