// ServiceCall: how the batch commands talk to a running idres service
// (`idres import --server`, `idres changes --server`): its URL, and one
// Connect unary call over the client library (client/http_client.h), with
// the status codes (never their messages) mapped back to errors by the
// client's one mapping (client/status_errors.h), so that callers retry what
// they would retry against the engine.
//
// Thread-safety: pure functions; each call opens its own connection.
#pragma once

#include <stdexcept>
#include <string>

#include "client/status_errors.h"

namespace idres::batch {

struct ServiceUrl {
  std::string host;
  std::string port;    // "80" when the URL names none
  std::string prefix;  // the service's path before /idres.v1.IdentityService/; may be empty
};

// `url` is http://host[:port][/prefix]. Throws std::invalid_argument on one
// that is not http://.
ServiceUrl ParseServiceUrl(const std::string& url);

using client::RequestTooLargeError;

// POSTs `body` (of `content_type`) to the service's `method`, with
// "Authorization: Bearer <token>" when `token` is set; the 200 response's
// body. Throws UnavailableError (unreachable, or unavailable), and for any
// other code what client::ThrowStatus throws (RequestTooLargeError for
// resource_exhausted or HTTP 413).
std::string CallService(const ServiceUrl& url, const std::string& token, const std::string& method,
                        std::string body, const std::string& content_type = "application/json");

}  // namespace idres::batch
