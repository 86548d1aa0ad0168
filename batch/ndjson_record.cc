#include "batch/ndjson_record.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace idres::batch {
namespace {

using nlohmann::json;

std::variant<Record, std::string> Fail(std::string reason) { return reason; }

std::optional<std::string> ReadIdentifiers(const json& list, Record* record) {
  if (!list.is_array()) return "\"identifiers\" is not an array";
  for (const json& item : list) {
    if (!item.is_object()) return "an identifier is not an object";
    auto type = item.find("type");
    auto value = item.find("value");
    if (type == item.end() || !type->is_string()) return "an identifier has no string \"type\"";
    if (value == item.end() || !value->is_string()) {
      return "identifier \"" + type->get<std::string>() + "\" has no string \"value\"";
    }
    for (const auto& [key, unused] : item.items()) {
      if (key != "type" && key != "value") return "unknown identifier field \"" + key + "\"";
    }
    record->identifiers.push_back({type->get<std::string>(), value->get<std::string>()});
  }
  return std::nullopt;
}

std::optional<std::string> ReadTraits(const json& traits, Record* record) {
  if (!traits.is_object()) return "\"traits\" is not an object";
  for (const auto& [key, value] : traits.items()) {
    if (value.is_string()) {
      record->traits[key] = value.get<std::string>();
    } else if (value.is_boolean()) {
      record->traits[key] = value.get<bool>();
    } else if (value.is_number()) {
      double number = value.get<double>();
      if (!std::isfinite(number)) return "trait \"" + key + "\" is not a finite number";
      record->traits[key] = number;
    } else {
      return "trait \"" + key + "\" is not a string, number or boolean";
    }
  }
  return std::nullopt;
}

std::optional<std::string> ReadString(const json& value, std::string_view name, std::string* into) {
  if (!value.is_string()) return "\"" + std::string(name) + "\" is not a string";
  *into = value.get<std::string>();
  return std::nullopt;
}

}  // namespace

std::variant<Record, std::string> ParseNdjsonRecord(std::string_view line) {
  json doc = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Fail("not valid JSON");
  if (!doc.is_object()) return Fail("not a JSON object");
  Record record;
  for (const auto& [key, value] : doc.items()) {
    std::optional<std::string> error;
    if (key == "identifiers") {
      error = ReadIdentifiers(value, &record);
    } else if (key == "traits") {
      error = ReadTraits(value, &record);
    } else if (key == "defaultRegion" || key == "default_region") {
      error = ReadString(value, key, &record.default_region);
    } else if (key == "source") {
      error = ReadString(value, key, &record.source);
    } else {
      error = "unknown field \"" + key + "\"";
    }
    if (error) return Fail(std::move(*error));
  }
  return record;
}

}  // namespace idres::batch
