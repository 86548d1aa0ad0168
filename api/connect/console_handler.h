// ConsoleResponse: GET /console/ and /console/<file>, the steward console's
// static files (api/console_files.h). They hold no data, so they are served
// without the bearer token; every call the page makes to the service sends
// it. A pure function from request to response, as RpcHandler is.
#pragma once

#include <optional>

#include "api/connect/http_message.h"

namespace idres::api {

// The console's answer to `request`, or nullopt when its path is not
// /console or under /console/. /console redirects to /console/ (308), a
// file is served with a Content-Security-Policy that lets the page load and
// call nothing but this server, a method other than GET is 405 and an
// unknown file 404.
std::optional<HttpResponse> ConsoleResponse(const HttpRequest& request);

}  // namespace idres::api
