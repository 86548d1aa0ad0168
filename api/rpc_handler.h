// RpcHandler: the whole HTTP surface as a pure function from request to
// response — Connect unary calls on POST /idres.v1.IdentityService/<Method>,
// GET /healthz and GET /metrics. It does no I/O of its own beyond the
// backend calls, so it is tested without sockets; the session
// (api/session.h) runs it on the database thread pool.
//
// Every failure becomes a response here: bad input and limits through
// IdentityMethods, thrown backend failures through MapException.
//
// Thread-safety: Handle may be called from many threads at once.
#pragma once

#include <string>

#include "api/backend.h"
#include "api/http_message.h"
#include "api/limits.h"
#include "api/metrics.h"
#include "api/rpc_methods.h"

namespace idres::api {

struct HandlerOptions {
  Limits limits;
  // When non-empty, every request but GET /healthz needs
  // "Authorization: Bearer <auth_token>".
  std::string auth_token;
  int pool_size = 0;  // reported on /metrics
};

class RpcHandler {
 public:
  // `metrics` may be null (no metrics recorded, /metrics answers 404).
  RpcHandler(IdentityBackend& backend, Metrics* metrics, HandlerOptions options);

  // The response to `request`; never throws.
  HttpResponse Handle(const HttpRequest& request) const;

  // The service's path prefix, "/idres.v1.IdentityService/".
  static constexpr std::string_view kServicePrefix = "/idres.v1.IdentityService/";

 private:
  HttpResponse Health() const;
  HttpResponse Call(std::string_view method, const HttpRequest& request) const;
  HttpResponse Dispatch(std::string_view method, const HttpRequest& request) const;

  IdentityBackend& backend_;
  Metrics* metrics_;
  HandlerOptions options_;
  IdentityMethods methods_;
};

}  // namespace idres::api
