// One NDJSON line as an upsert record, in the shape of the RPC's Record:
//   {"identifiers":[{"type":"email","value":"a@b.c"}],
//    "traits":{"tier":"gold","age":42,"vip":true},
//    "defaultRegion":"DE","source":"crm"}
// ("default_region" is accepted too). Trait values must be flat (string,
// number, boolean); unknown fields are refused so a typo is not silently
// ignored. A line that cannot be a record is a value with a reason.
// Pure function; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "engine/record.h"

namespace idres::batch {

// The record in `line`, or why it is not one.
std::variant<Record, std::string> ParseNdjsonRecord(std::string_view line);

}  // namespace idres::batch
