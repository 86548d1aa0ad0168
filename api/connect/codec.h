// The Connect unary codec: which wire format a Content-Type names, and the
// proto3 JSON / binary decoding and encoding of messages. Unknown JSON fields,
// malformed input, invalid UTF-8, fields given twice and nesting past
// kMaxJsonDepth (api/json_shape.h) come back as an RpcError (never an
// exception). Internal to api/. Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api/connect/connect_error.h"

namespace google::protobuf {
class Message;
}

namespace idres::api {

enum class WireFormat { kJson, kProto };

// The format of a Connect unary request's Content-Type ("application/json",
// optionally with "; charset=utf-8", or "application/proto"); nullopt for
// anything else.
std::optional<WireFormat> ParseContentType(std::string_view content_type);

// Whether a request's Content-Encoding means no compression: absent, or
// "identity" in any case (header values compare without case).
bool IsIdentityEncoding(std::string_view content_encoding);

// The Content-Type to answer with.
std::string_view ContentTypeOf(WireFormat format);

// Parses `body` into `message` (cleared first); an invalid_argument error
// with a reason when it is not a valid message of that type.
std::optional<RpcError> Decode(std::string_view body, WireFormat format,
                               google::protobuf::Message& message);

// `message` in `format`; JSON uses lowerCamelCase names and prints fields
// that hold their default value, so curl users see every field.
std::string Encode(const google::protobuf::Message& message, WireFormat format);

}  // namespace idres::api
