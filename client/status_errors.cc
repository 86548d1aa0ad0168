#include "client/status_errors.h"

#include "engine/errors.h"

namespace idres::client {

void ThrowStatus(api::Code code, const std::string& message) {
  const std::string what = std::string(api::CodeName(code)) + ": " + message;
  switch (code) {
    case api::Code::kUnavailable:
      throw UnavailableError(what);
    case api::Code::kDeadlineExceeded:
      throw DeadlineError(what);
    case api::Code::kInternal:
      throw InternalError(what);
    case api::Code::kResourceExhausted:
      throw RequestTooLargeError(message);
    default:
      throw api::StatusError(code, message);
  }
}

}  // namespace idres::client
