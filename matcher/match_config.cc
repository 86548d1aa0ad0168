#include "matcher/match_config.h"

namespace idres {

MatchConfig MatchConfig::Defaults() {
  MatchConfig config;
  for (const char* strong : {"email", "phone", "cookie", "device_id", "customer_id"}) {
    config.types[strong] = TypeRule{1.0, true};
  }
  config.types["name"] = TypeRule{0.4, false};
  config.types["birth_date"] = TypeRule{0.4, false};
  config.types["postal_code"] = TypeRule{0.3, false};
  config.threshold = 1.0;
  return config;
}

const TypeRule* MatchConfig::Find(std::string_view type) const {
  auto it = types.find(type);
  return it == types.end() ? nullptr : &it->second;
}

}  // namespace idres
