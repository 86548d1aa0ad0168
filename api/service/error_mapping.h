// The one place where failures thrown below the service become status
// codes: the engine's BusyError, UnavailableError and ConflictError are
// retryable and map to unavailable, DeadlineError to deadline_exceeded, a
// StatusError to its own code; everything else is internal, with a fixed
// message (the detail goes to the log, never to the client, so no SQL or
// stack trace can leak). The client's mapping (client/status_errors.h) is
// its inverse. Internal to api/. Thread-safe.
#pragma once

#include <exception>

#include "api/service/status.h"

namespace idres::api {

// The status for a failure of `method`; logs what the client is not
// told.
RpcError MapException(std::exception_ptr failure, std::string_view method);

}  // namespace idres::api
