// The Connect protocol's way of writing a status code (api/service/status.h):
// its HTTP status and the error body {"code": ..., "message": ...}
// (connectrpc.com/docs/protocol, "Error Codes"). Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "api/connect/http_message.h"
#include "api/service/status.h"

namespace idres::api {

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
