// The client's side of the service's status codes: a code a call came back
// with becomes the error a caller of the engine would have caught, the exact
// inverse of the server's mapping (api/service/error_mapping.h), so that
// MapException(ThrowStatus(code)) is that code again for every code
// (tests/client/status_errors_test.cc): unavailable is UnavailableError
// (retryable: a lock timeout, the database down, conflicts past the
// retries), deadline_exceeded DeadlineError, internal InternalError,
// resource_exhausted RequestTooLargeError, and every other code a
// StatusError carrying it. Pure functions; thread-safe.
#pragma once

#include <string>

#include "api/service/status.h"

namespace idres::client {

// The service refused a request for its size (resource_exhausted: a body
// or message over the limit, a record over the engine's record limits, or
// more records than --max-batch; or HTTP 413 from a proxy in front of it):
// sending it again cannot help, sending it in parts may.
class RequestTooLargeError : public api::StatusError {
 public:
  explicit RequestTooLargeError(std::string message)
      : api::StatusError(api::Code::kResourceExhausted, std::move(message)) {}
};

// Throws the error for `code`, with `message` (the server's) in what().
[[noreturn]] void ThrowStatus(api::Code code, const std::string& message);

}  // namespace idres::client
