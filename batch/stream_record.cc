#include "batch/stream_record.h"

#include <string>

#include "api/idres/v1/identity.pb.h"
#include "api/service/proto_mapping.h"
#include "batch/ndjson_record.h"

namespace idres::batch {
namespace {

std::variant<Record, std::string> ParseProto(std::string_view value) {
  v1::Record message;
  if (!message.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
    return std::string("not a binary idres.v1.Record message");
  }
  // The service's own mapping: a record it would refuse is refused here.
  return api::ToRecord(message);
}

}  // namespace

std::variant<Record, std::string> ParseStreamRecord(std::string_view value, StreamFormat format,
                                                    const StreamDefaults& defaults) {
  auto parsed = format == StreamFormat::kProto ? ParseProto(value) : ParseNdjsonRecord(value);
  if (auto* record = std::get_if<Record>(&parsed)) {
    if (record->source.empty()) record->source = defaults.source;
    if (record->default_region.empty()) record->default_region = defaults.region;
  }
  return parsed;
}

}  // namespace idres::batch
