// The Connect protocol's Connect-Timeout-Ms request header
// (connectrpc.com/docs/protocol: 1 to 10 ASCII digits, milliseconds) as the
// engine's Deadline, counted from when the request was read. Pure function;
// thread-safe.
#pragma once

#include <variant>

#include "api/connect/connect_error.h"
#include "api/connect/http_message.h"
#include "engine/deadline.h"

namespace idres::api {

// No header: a deadline that never passes. A malformed value:
// invalid_argument, with the value quoted.
std::variant<Deadline, RpcError> DeadlineOf(const HttpRequest& request);

}  // namespace idres::api
