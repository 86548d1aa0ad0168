// RpcHandler: the whole HTTP surface as a pure function from request to
// response — Connect unary calls on POST /idres.v1.IdentityService/<Method>,
// GET /healthz, GET /metrics and the steward console's files under GET
// /console/ (api/console_handler.h). It does no I/O of its own beyond the
// backend calls, so it is tested without sockets.
//
// Every failure becomes a response here: bad input and limits through
// IdentityMethods, thrown backend failures through MapException.
//
// An Upsert, whatever the size of its body, takes one path: Begin() does
// all of it but the database work (routing, checks, decoding, the record's
// own checks), Submit() hands the record to the backend, which groups
// queued upserts (Engine::Submit), and Finish() makes the response of the
// outcome. The session (api/session.h) runs all three on its network
// thread, which goes on serving while the upsert waits: the body is bounded
// by Limits::max_body_bytes and its JSON nesting by kMaxJsonDepth, so
// decoding it there takes time in proportion to what that thread just read
// (README.md, "Single upserts under load share transactions"). Handle()
// answers every request; it runs the other methods, which block while the
// database works (the session runs it on the database thread pool), and an
// Upsert by that same path, waiting for the outcome.
//
// Thread-safety: Handle, Begin, Submit and Finish may be called from many
// threads at once.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <variant>

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

// An Upsert call decoded and checked, for Submit() to apply.
struct PendingUpsert {
  Record record;
  Deadline deadline;
  WireFormat format;
  std::chrono::steady_clock::time_point start;  // when the handler took the call
};

class RpcHandler {
 public:
  // `metrics` may be null (no metrics recorded, /metrics answers 404). Both
  // `backend` and `metrics` must outlive the handler.
  RpcHandler(IdentityBackend& backend, Metrics* metrics, HandlerOptions options);

  // The response to `request`; never throws. Blocks while the database
  // works, an Upsert included.
  HttpResponse Handle(const HttpRequest& request) const;

  using Begun = std::variant<HttpResponse, PendingUpsert>;
  // For an Upsert call: the response if the call is refused before it
  // reaches the database, else the upsert to hand to Submit() and then to
  // Finish(). nullopt for any other request: those need Handle(). Does no
  // database work; never throws.
  std::optional<Begun> Begin(const HttpRequest& request) const;
  // Hands `upsert`'s record to the backend; `done` gets the outcome, once,
  // on a thread of the backend's, or here with the error when the backend
  // cannot take it. Never throws.
  void Submit(PendingUpsert& upsert, const UpsertCallback& done) const;
  // The response to a begun upsert, from its outcome; never throws.
  HttpResponse Finish(const PendingUpsert& upsert, UpsertOutcome outcome) const;

  // The service's path prefix, "/idres.v1.IdentityService/".
  static constexpr std::string_view kServicePrefix = "/idres.v1.IdentityService/";

 private:
  HttpResponse Health() const;
  HttpResponse Call(std::string_view method, const HttpRequest& request) const;
  HttpResponse Dispatch(std::string_view method, const HttpRequest& request) const;
  Begun BeginUpsert(const HttpRequest& request, std::chrono::steady_clock::time_point start) const;
  // Begin(), Submit() and Finish() on this thread, waiting for the outcome.
  HttpResponse Wait(Begun begun) const;
  // Whether `request` carries the bearer token, when one is required.
  bool Authorized(const HttpRequest& request) const;
  // Records a call of `method` that began at `start` and got `response`.
  void Observe(std::string_view method, std::chrono::steady_clock::time_point start,
               const HttpResponse& response) const;

  IdentityBackend& backend_;
  Metrics* metrics_;
  HandlerOptions options_;
  IdentityMethods methods_;
};

}  // namespace idres::api
