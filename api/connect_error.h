// The Connect protocol's error codes, their HTTP statuses and the error body
// {"code": ..., "message": ...} (connectrpc.com/docs/protocol, "Error
// Codes"). Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "api/http_message.h"

namespace idres::api {

enum class Code {
  kCanceled,
  kUnknown,
  kInvalidArgument,
  kDeadlineExceeded,
  kNotFound,
  kAlreadyExists,
  kPermissionDenied,
  kResourceExhausted,
  kFailedPrecondition,
  kAborted,
  kOutOfRange,
  kUnimplemented,
  kInternal,
  kUnavailable,
  kDataLoss,
  kUnauthenticated,
};

// An RPC failure as the client will see it.
struct RpcError {
  Code code = Code::kUnknown;
  std::string message;
};

// The code's wire name, e.g. "invalid_argument".
std::string_view CodeName(Code code);

// The HTTP status the Connect protocol assigns to the code (e.g. 429 for
// resource_exhausted, 503 for unavailable).
int HttpStatus(Code code);

// The error as a Connect unary error response: the code's HTTP status and a
// JSON body {"code", "message"}.
HttpResponse ErrorResponse(const RpcError& error);

// `s` as a JSON string literal, quotes included; invalid UTF-8 bytes become
// U+FFFD so the body stays valid JSON.
std::string JsonQuote(std::string_view s);

}  // namespace idres::api
