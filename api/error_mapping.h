// The one place where failures thrown below the handler become Connect
// errors: the engine's BusyError, UnavailableError and ConflictError are
// retryable and map to unavailable; everything else is internal, with a
// fixed message (the detail goes to the log, never to the client, so no SQL
// or stack trace can leak). Internal to api/. Thread-safe.
#pragma once

#include <exception>

#include "api/connect_error.h"

namespace idres::api {

// The Connect error for a failure of `method`; logs what the client is not
// told.
RpcError MapException(std::exception_ptr failure, std::string_view method);

}  // namespace idres::api
