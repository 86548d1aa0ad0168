#include "batch/ndjson_record.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace idres::batch {
namespace {

using nlohmann::json;

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

// The document in `line`, or why it is none. A key given twice in one
// object is refused: the parser would keep one silently, and two
// "identifiers" lists would lose one person's values.
std::variant<json, std::string> ParseStrict(std::string_view line) {
  // The parser takes NUL for the end of its input and would drop the rest.
  if (line.find('\0') != std::string_view::npos) {
    return std::string("not valid JSON: a NUL byte");
  }
  std::vector<std::set<std::string>> keys;  // of each open object, innermost last
  std::optional<std::string> twice;
  const auto watch = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) keys.emplace_back();
    if (event == json::parse_event_t::object_end) keys.pop_back();
    if (event == json::parse_event_t::key &&
        !keys.back().insert(parsed.get<std::string>()).second) {
      if (!twice) twice = parsed.get<std::string>();
    }
    return true;
  };
  json doc;
  try {
    doc = json::parse(line, watch);
  } catch (const json::exception&) {       // a parse error, or a number past double's range
    return std::string("not valid JSON");  // one reason for all: the summary counts by reason
  }
  if (twice) return "field \"" + *twice + "\" given twice";
  if (doc.is_object() && doc.contains("defaultRegion") && doc.contains("default_region")) {
    return std::string("field \"defaultRegion\" given twice (also as \"default_region\")");
  }
  return doc;
}

}  // namespace

std::variant<Record, std::string> ParseNdjsonRecord(std::string_view line) {
  auto parsed = ParseStrict(line);
  if (auto* error = std::get_if<std::string>(&parsed)) return std::move(*error);
  const json& doc = std::get<json>(parsed);
  if (!doc.is_object()) return std::string("not a JSON object");
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
    } else if (key == "recordId" || key == "record_id") {
      error = ReadString(value, key, &record.record_id);
    } else {
      error = "unknown field \"" + key + "\"";
    }
    if (error) return std::move(*error);
  }
  return record;
}

}  // namespace idres::batch
