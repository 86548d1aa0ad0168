// ServiceCall: how the batch commands talk to a running idres service
// (`idres import --server`, `idres changes --server`): its URL, and one
// Connect unary call over the one C++ client (api/http_client.h), with the
// Connect error codes (never their messages) mapped onto engine/errors.h so
// that callers retry what they would retry against the engine.
//
// Thread-safety: pure functions; each call opens its own connection.
#pragma once

#include <stdexcept>
#include <string>

namespace idres::batch {

struct ServiceUrl {
  std::string host;
  std::string port;    // "80" when the URL names none
  std::string prefix;  // the service's path before /idres.v1.IdentityService/; may be empty
};

// `url` is http://host[:port][/prefix]. Throws std::invalid_argument on one
// that is not http://.
ServiceUrl ParseServiceUrl(const std::string& url);

// The service refused a request for its size (HTTP 413, or
// resource_exhausted: the service answers a whole request with that code
// only for its body or its number of records, api/limits.h): sending it
// again cannot help, sending it in parts may.
class RequestTooLargeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// POSTs `body` (of `content_type`) to the service's `method`, with
// "Authorization: Bearer <token>" when `token` is set; the 200 response's
// body. Throws UnavailableError (unreachable, or unavailable), BusyError
// (deadline_exceeded), ConflictError (aborted), RequestTooLargeError, and
// InternalError for any other answer.
std::string CallService(const ServiceUrl& url, const std::string& token, const std::string& method,
                        std::string body, const std::string& content_type = "application/json");

}  // namespace idres::batch
