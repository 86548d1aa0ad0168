#include "client/client_requests.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "api/connect/codec.h"
#include "api/idres/v1/identity.pb.h"
#include "api/service/proto_mapping.h"

namespace idres::client {

using api::Decode;
using api::FillRecord;
using api::ToChange;
using api::ToExplanation;
using api::ToRecord;
using api::WireFormat;

namespace {

using nlohmann::json;

// int64 fields arrive as JSON strings in the proto3 mapping (numbers are
// accepted too).
std::int64_t Int64(const json& value) {
  if (value.is_string()) return std::stoll(value.get<std::string>());
  return value.get<std::int64_t>();
}

Outcome ToOutcome(const std::string& name) {
  if (name == "OUTCOME_CREATED") return Outcome::kCreated;
  if (name == "OUTCOME_UPDATED") return Outcome::kUpdated;
  if (name == "OUTCOME_MERGED") return Outcome::kMerged;
  return Outcome::kUnchanged;
}

UpsertResult ToResult(const json& r) {
  UpsertResult result;
  if (auto it = r.find("error"); it != r.end() && it->is_object() && !it->empty()) {
    result.error =
        it->value("code", std::string("unknown")) + ": " + it->value("message", std::string());
  }
  if (auto it = r.find("personId"); it != r.end()) result.person_id = Int64(*it);
  if (auto it = r.find("outcome"); it != r.end())
    result.outcome = ToOutcome(it->get<std::string>());
  result.score = r.value("score", 0.0);
  for (const json& id : r.value("mergedPersonIds", json::array())) {
    result.merged_person_ids.push_back(Int64(id));
  }
  for (const json& rej : r.value("rejected", json::array())) {
    result.rejected.push_back({rej.value("type", std::string()), rej.value("value", std::string()),
                               rej.value("reason", std::string())});
  }
  return result;
}

}  // namespace

std::variant<Record, std::string> RecordFromJson(const std::string& json) {
  v1::Record message;
  if (auto error = Decode(json, WireFormat::kJson, message)) return error->message;
  return ToRecord(message);
}

std::string ExplainRequestProto(const Record& record) {
  v1::ExplainRequest request;
  FillRecord(record, *request.mutable_record());
  return request.SerializeAsString();
}

std::variant<Explanation, std::string> ParseExplainProto(const std::string& body) {
  v1::ExplainResponse response;
  if (!response.ParseFromString(body)) return std::string("the response is not an ExplainResponse");
  return ToExplanation(response.explanation());
}

std::string UpsertRequestProto(const Record& record) {
  v1::UpsertRequest request;
  FillRecord(record, *request.mutable_record());
  return request.SerializeAsString();
}

std::optional<std::string> RecordJson(const Record& record) {
  json ids = json::array();
  for (const RawIdentifier& id : record.identifiers) {
    ids.push_back({{"type", id.type}, {"value", id.value}});
  }
  json traits = json::object();
  for (const auto& [key, value] : record.traits) {
    std::visit([&, &k = key](const auto& v) { traits[k] = v; }, value);
  }
  json doc = {{"identifiers", ids}, {"traits", traits}};
  if (!record.default_region.empty()) doc["defaultRegion"] = record.default_region;
  if (!record.source.empty()) doc["source"] = record.source;
  try {
    return doc.dump();  // strict: text that is not UTF-8 throws
  } catch (const json::type_error&) {
    return std::nullopt;
  }
}

std::string BatchRequestJson(std::span<const std::string> record_jsons,
                             const BatchReceipt* receipt) {
  std::string body = fmt::format("{{\"records\":[{}]", fmt::join(record_jsons, ","));
  if (receipt != nullptr) {
    // int64 as JSON strings, the proto3 mapping's canonical form.
    body += ",\"receipt\":{\"job\":\"" + std::to_string(receipt->job) + "\",\"items\":[";
    for (std::size_t i = 0; i < receipt->items.size(); ++i) {
      body += (i > 0 ? ",\"" : "\"") + std::to_string(receipt->items[i]) + '"';
    }
    body += "]}";
  }
  return body + "}";
}

std::string ForgetReceiptsJson(std::int64_t job) {
  return "{\"job\":\"" + std::to_string(job) + "\"}";
}

std::variant<std::vector<UpsertResult>, std::string> ParseBatchResponse(const std::string& body) {
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::string("the response is not JSON");
  try {
    std::vector<UpsertResult> results;
    for (const json& r : doc.value("results", json::array())) results.push_back(ToResult(r));
    return results;
  } catch (const std::exception& e) {
    return std::string("the response is not a BatchUpsertResponse: ") + e.what();
  }
}

std::string ListChangesRequestProto(std::int64_t after_position, std::int32_t limit) {
  v1::ListChangesRequest request;
  request.set_after_position(after_position);
  request.set_limit(limit);
  return request.SerializeAsString();
}

std::variant<std::vector<Change>, std::string> ParseListChangesProto(const std::string& body) {
  v1::ListChangesResponse response;
  if (!response.ParseFromString(body))
    return std::string("the response is not a ListChangesResponse");
  std::vector<Change> changes;
  for (const v1::Change& c : response.changes()) {
    auto change = ToChange(c);
    if (auto* reason = std::get_if<std::string>(&change)) return std::move(*reason);
    changes.push_back(std::get<Change>(std::move(change)));
  }
  return changes;
}

std::string ConnectErrorCode(const std::string& body, std::string* message) {
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    *message = body.substr(0, 200);
    return "unknown";
  }
  *message = doc.value("message", std::string());
  return doc.value("code", std::string("unknown"));
}

}  // namespace idres::client
