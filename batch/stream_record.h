// The record a stream message carries: `--format ndjson` (one record in the
// Upsert record's JSON shape, batch/ndjson_record.h) or `proto` (the binary
// idres.v1.Record message, mapped as the service maps it), with the
// consumer's default source and region for a record naming none. A message
// that cannot be a record is a value with a reason. Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "engine/record.h"

namespace idres::batch {

enum class StreamFormat { kNdjson, kProto };

struct StreamDefaults {
  std::string source;  // for a record naming none
  std::string region;  // for a record naming no default region
};

// The record in `value`, or why it is not one.
std::variant<Record, std::string> ParseStreamRecord(std::string_view value, StreamFormat format,
                                                    const StreamDefaults& defaults);

}  // namespace idres::batch
