#include "batch/json_text.h"

#include <nlohmann/json.hpp>

namespace idres::batch {

bool IsJsonText(const std::string& text) {
  try {
    (void)nlohmann::json(text).dump();  // strict: throws on bytes that are not UTF-8
    return true;
  } catch (const nlohmann::json::type_error&) {
    return false;
  }
}

std::string ToJsonText(const std::string& text) {
  return nlohmann::json::parse(
             nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
      .get<std::string>();
}

}  // namespace idres::batch
