// Bodies for clients of the IdentityService written in C++ (the import's
// --server, the benchmark suite, tests; sent with client/http_client.h), built
// from and read into the engine's plain values so that the caller needs no
// protobuf type: the binary protobuf encoding ("application/proto" in the
// Connect protocol) of Upsert and ListChanges, which a server decodes
// several times faster, and the proto3 JSON mapping of BatchUpsert and
// ForgetReceipts
// (api/idres/v1/identity.proto). Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "engine/change.h"
#include "engine/record.h"

namespace idres::client {

// The Content-Type of the bodies below.
inline constexpr const char* kProtoContentType = "application/proto";

// An UpsertRequest for `record`, binary protobuf.
std::string UpsertRequestProto(const Record& record);

// The JSON text of one Record message; nullopt when a string in it is not
// valid UTF-8 (JSON cannot carry it, and replacing the bytes would store
// other text than the input's).
std::optional<std::string> RecordJson(const Record& record);

// The JSON of a BatchUpsertRequest whose "records" are `record_jsons`, with
// `receipt` (one item per record) when it is not null.
std::string BatchRequestJson(std::span<const std::string> record_jsons,
                             const BatchReceipt* receipt = nullptr);

// The JSON of a ForgetReceiptsRequest for `job`.
std::string ForgetReceiptsJson(std::int64_t job);

// The results of a BatchUpsertResponse, or why the body is not one. A
// result carrying an Error gets `error` "<code>: <message>".
std::variant<std::vector<UpsertResult>, std::string> ParseBatchResponse(const std::string& body);

// A ListChangesRequest for the changes after `after_position`, at most
// `limit`, binary protobuf.
std::string ListChangesRequestProto(std::int64_t after_position, std::int32_t limit);

// The changes of a binary ListChangesResponse, or why the body is not one.
std::variant<std::vector<Change>, std::string> ParseListChangesProto(const std::string& body);

// The record a Record message's JSON text (proto3 JSON mapping, as the
// Upsert and Explain requests carry it) makes, or why it makes none.
std::variant<Record, std::string> RecordFromJson(const std::string& json);

// An ExplainRequest for `record`, binary protobuf.
std::string ExplainRequestProto(const Record& record);

// The explanation of a binary ExplainResponse, or why the body is not one.
std::variant<Explanation, std::string> ParseExplainProto(const std::string& body);

// The Connect error's code in an error body ({"code":..,"message":..}),
// "unknown" when there is none; `message` gets the message.
std::string ConnectErrorCode(const std::string& body, std::string* message);

}  // namespace idres::client
