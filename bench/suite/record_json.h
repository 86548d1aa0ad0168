// The Connect JSON bodies the HTTP runs send (api/idres/v1/identity.proto in
// the proto3 JSON mapping), and the one figure read back from GET /metrics.
// Pure functions; thread-safe.
#pragma once

#include <optional>
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

// The value of the sample `name` (no labels) in a Prometheus text page.
std::optional<double> MetricValue(std::string_view page, std::string_view name);

}  // namespace idres::bench
