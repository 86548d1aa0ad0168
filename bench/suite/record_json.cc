#include "bench/suite/record_json.h"

#include <nlohmann/json.hpp>

namespace idres::bench {
namespace {

nlohmann::json RecordJson(const Record& record) {
  nlohmann::json ids = nlohmann::json::array();
  for (const auto& id : record.identifiers) ids.push_back({{"type", id.type}, {"value", id.value}});
  nlohmann::json traits = nlohmann::json::object();
  // Not a structured binding: clang 14 cannot capture one in the lambda.
  for (const auto& trait : record.traits) {
    std::visit([&](const auto& v) { traits[trait.first] = v; }, trait.second);
  }
  nlohmann::json out = {{"identifiers", ids}, {"traits", traits}};
  if (!record.source.empty()) out["source"] = record.source;
  return out;
}

}  // namespace

std::string UpsertRequestJson(const Record& record) {
  return nlohmann::json{{"record", RecordJson(record)}}.dump();
}

std::string BatchUpsertRequestJson(std::span<const Record> records) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& r : records) list.push_back(RecordJson(r));
  return nlohmann::json{{"records", list}}.dump();
}

int BatchErrors(std::string_view response_body) {
  const auto body = nlohmann::json::parse(response_body, nullptr, false);
  if (body.is_discarded() || !body.contains("results")) return -1;
  int errors = 0;
  for (const auto& r : body["results"]) errors += r.contains("error") ? 1 : 0;
  return errors;
}

}  // namespace idres::bench
