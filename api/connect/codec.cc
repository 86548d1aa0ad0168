#include "api/connect/codec.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/message.h>
#include <google/protobuf/util/json_util.h>
#include <boost/algorithm/string/case_conv.hpp>

#include "api/connect/json_shape.h"
#include "base/strings.h"
#include "normalize/utf8.h"

namespace idres::api {

namespace {
constexpr std::string_view kProtoContentType = "application/proto";
}  // namespace
namespace {

// ASCII lower case (the C locale's), as HTTP compares media types.
std::string Lower(std::string_view s) { return boost::algorithm::to_lower_copy(std::string(s)); }

RpcError Invalid(std::string message) { return {Code::kInvalidArgument, std::move(message)}; }

std::optional<RpcError> DecodeJson(std::string_view body, google::protobuf::Message& message) {
  if (const auto at = FindInvalidUtf8(body)) {
    return Invalid("request body is not valid UTF-8 (byte " + std::to_string(*at) + ")");
  }
  if (auto shape = JsonShapeError(body, *message.GetDescriptor())) return Invalid(*shape);
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;  // a misspelt field must not be dropped silently
  const auto status = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(body.data(), body.size()), &message, options);
  if (!status.ok()) {
    return Invalid("malformed JSON for " + message.GetDescriptor()->name() + ": " +
                   std::string(status.message()));
  }
  return std::nullopt;
}

std::optional<RpcError> DecodeProto(std::string_view body, google::protobuf::Message& message) {
  google::protobuf::io::CodedInputStream input(reinterpret_cast<const std::uint8_t*>(body.data()),
                                               static_cast<int>(body.size()));
  if (!message.MergeFromCodedStream(&input) || !input.ConsumedEntireMessage()) {
    return Invalid("malformed binary " + message.GetDescriptor()->name() +
                   " (truncated, corrupt, or a string that is not valid UTF-8)");
  }
  return std::nullopt;
}

}  // namespace

std::optional<WireFormat> ParseContentType(std::string_view content_type) {
  std::string_view media = content_type.substr(0, content_type.find(';'));
  const std::string type = Lower(Trim(media));
  if (type == "application/json") return WireFormat::kJson;
  if (type == kProtoContentType) return WireFormat::kProto;
  return std::nullopt;
}

bool IsIdentityEncoding(std::string_view content_encoding) {
  return content_encoding.empty() || Lower(Trim(content_encoding)) == "identity";
}

std::string_view ContentTypeOf(WireFormat format) {
  return format == WireFormat::kJson ? "application/json" : kProtoContentType;
}

std::optional<RpcError> Decode(std::string_view body, WireFormat format,
                               google::protobuf::Message& message) {
  message.Clear();
  return format == WireFormat::kJson ? DecodeJson(body, message) : DecodeProto(body, message);
}

std::string Encode(const google::protobuf::Message& message, WireFormat format) {
  std::string out;
  if (format == WireFormat::kProto) {
    message.SerializeToString(&out);
    return out;
  }
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.always_print_enums_as_ints = false;
  options.preserve_proto_field_names = false;
  // Our own messages always print; failure would be a bug, not bad input.
  (void)google::protobuf::util::MessageToJsonString(message, &out, options);
  return out;
}

}  // namespace idres::api
