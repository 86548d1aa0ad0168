// RpcHandler: the whole HTTP surface as a pure function from request to
// response — Connect unary calls on POST /idres.v1.IdentityService/<Method>,
// GET /healthz and GET /metrics. It does no I/O of its own beyond the
// backend calls, so it is tested without sockets; the session
// (api/session.h) runs Handle() on the database thread pool.
//
// Every failure becomes a response here: bad input and limits through
// IdentityMethods, thrown backend failures through MapException.
//
// Given an AsyncUpserter, an Upsert call can be answered without a database
// thread: Begin() does all of it but the database work (routing, checks,
// decoding, the record's own checks), the session hands the record to the
// upserter, and Finish() makes the response of the outcome. Both run on the
// network threads, so Begin() leaves a body over kMaxBeginBody (decoding it
// would hold up every connection of its thread) to Handle().
//
// Thread-safety: Handle, Begin and Finish may be called from many threads
// at once.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <variant>

#include "api/async_upserter.h"
#include "api/backend.h"
#include "api/codec.h"
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

// An Upsert call decoded and checked, for an AsyncUpserter to apply.
struct PendingUpsert {
  Record record;
  Deadline deadline;
  WireFormat format;
  std::chrono::steady_clock::time_point start;  // when the handler took the call
};

class RpcHandler {
 public:
  // `metrics` may be null (no metrics recorded, /metrics answers 404);
  // `upserter` may be null (Begin() always answers nullopt). Both must
  // outlive the handler.
  RpcHandler(IdentityBackend& backend, Metrics* metrics, HandlerOptions options,
             AsyncUpserter* upserter = nullptr);

  // The response to `request`; never throws.
  HttpResponse Handle(const HttpRequest& request) const;

  using Begun = std::variant<HttpResponse, PendingUpsert>;
  // For an Upsert call, when there is an upserter: the response if the call
  // is refused before it reaches the database, else the upsert to hand to
  // upserter() and then to Finish(). nullopt for any other request, and for
  // a body over kMaxBeginBody: those need Handle(). Does no database work;
  // never throws.
  std::optional<Begun> Begin(const HttpRequest& request) const;
  // The response to a begun upsert, from its outcome; never throws.
  HttpResponse Finish(const PendingUpsert& upsert, UpsertOutcome outcome) const;
  AsyncUpserter* upserter() const { return upserter_; }

  // The largest Upsert body Begin() decodes; a single record is far smaller.
  static constexpr std::size_t kMaxBeginBody = 64 * 1024;

  // The service's path prefix, "/idres.v1.IdentityService/".
  static constexpr std::string_view kServicePrefix = "/idres.v1.IdentityService/";

 private:
  HttpResponse Health() const;
  HttpResponse Call(std::string_view method, const HttpRequest& request) const;
  HttpResponse Dispatch(std::string_view method, const HttpRequest& request) const;
  Begun BeginUpsert(const HttpRequest& request, std::chrono::steady_clock::time_point start) const;
  // Whether `request` carries the bearer token, when one is required.
  bool Authorized(const HttpRequest& request) const;
  // Records a call of `method` that began at `start` and got `response`.
  void Observe(std::string_view method, std::chrono::steady_clock::time_point start,
               const HttpResponse& response) const;

  IdentityBackend& backend_;
  Metrics* metrics_;
  HandlerOptions options_;
  IdentityMethods methods_;
  AsyncUpserter* upserter_;
};

}  // namespace idres::api
