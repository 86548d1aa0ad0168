// The Connect JSON bodies the HTTP runs send (api/idres/v1/identity.proto in
// the proto3 JSON mapping), and how a BatchUpsert answer counts its errors.
// Pure functions; thread-safe.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "engine/record.h"

namespace idres::bench {

// {"record": {...}} for IdentityService/Upsert.
std::string UpsertRequestJson(const Record& record);

// {"records": [...]} for IdentityService/BatchUpsert.
std::string BatchUpsertRequestJson(std::span<const Record> records);

// The records of a BatchUpsert response that carry an error.
int BatchErrors(std::string_view response_body);

}  // namespace idres::bench
