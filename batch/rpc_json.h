// The proto3 JSON of BatchUpsert (api/idres/v1/identity.proto): encoding a
// request and decoding a response. Internal to batch/ (rpc_sink.cc); pure
// functions, thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "engine/record.h"

namespace idres::batch {

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

// The Connect error's code in an error body ({"code":..,"message":..}),
// "unknown" when there is none; `message` gets the message.
std::string ConnectErrorCode(const std::string& body, std::string* message);

}  // namespace idres::batch
