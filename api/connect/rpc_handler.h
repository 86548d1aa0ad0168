// RpcHandler: the whole HTTP surface as a pure function from request to
// response — Connect unary calls on POST /idres.v1.IdentityService/<Method>,
// GET /healthz, GET /metrics and the steward console's files under GET
// /console/ (api/console_handler.h). It does no I/O of its own beyond the
// backend calls, so it is tested without sockets.
//
// It only translates: HTTP and the Connect protocol (routing, Content-Type,
// Connect headers, the body limit, Connect-Timeout-Ms, the codec) into a
// Call for the transport-neutral IdentityService (api/service/service.h),
// which decides the rest, and the service's answer into a response.
//
// An Upsert, whatever the size of its body, takes one path: Begin() does
// all of it but the database work (routing, checks, decoding, the record's
// own checks), Submit() hands the record to the engine, which groups
// queued upserts (Engine::Submit), and Finish() makes the response of the
// outcome. The session (api/session.h) runs all three on its network
// thread, which goes on serving while the upsert waits: the body is bounded
// by Limits::max_body_bytes and its JSON nesting by kMaxJsonDepth, so
// decoding it there takes time in proportion to what that thread just read
// (docs/api.md, "Single upserts under load share transactions"). Handle()
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

#include "api/connect/codec.h"
#include "api/connect/http_message.h"
#include "api/service/metrics.h"
#include "api/service/service.h"

namespace idres::api {

struct HandlerOptions {
  int pool_size = 0;  // reported on /metrics
};

// An Upsert call decoded and checked, for Submit() to apply.
struct ConnectUpsert {
  PendingUpsert upsert;
  WireFormat format;
};

class RpcHandler {
 public:
  // `metrics` may be null (/metrics answers 404); it is the service's. Both
  // `service` and `metrics` must outlive the handler.
  RpcHandler(const IdentityService& service, Metrics* metrics, HandlerOptions options = {});

  // The response to `request`; never throws. Blocks while the database
  // works, an Upsert included.
  HttpResponse Handle(const HttpRequest& request) const;

  using Begun = std::variant<HttpResponse, ConnectUpsert>;
  // For an Upsert call: the response if the call is refused before it
  // reaches the database, else the upsert to hand to Submit() and then to
  // Finish(). nullopt for any other request: those need Handle(). Does no
  // database work; never throws.
  std::optional<Begun> Begin(const HttpRequest& request) const;
  // Hands `upsert`'s record to the engine; `done` gets the outcome, once,
  // on a thread of the engine's, or here with the error when the engine
  // cannot take it. Never throws.
  void Submit(ConnectUpsert& upsert, const UpsertCallback& done) const;
  // The response to a begun upsert, from its outcome; never throws.
  HttpResponse Finish(const ConnectUpsert& upsert, UpsertOutcome outcome) const;

  // The service's path prefix, "/idres.v1.IdentityService/".
  static constexpr std::string_view kServicePrefix = "/idres.v1.IdentityService/";

 private:
  HttpResponse Health() const;
  HttpResponse Dispatch(Call call, const HttpRequest& request) const;
  Begun BeginUpsert(const HttpRequest& request, Call call) const;
  // The call's wire format, its deadline set, once the transport's checks
  // and the service's start let it through; else the response refusing it.
  std::variant<HttpResponse, WireFormat> Open(const HttpRequest& request, Call& call) const;
  // Begin(), Submit() and Finish() on this thread, waiting for the outcome.
  HttpResponse Wait(Begun begun) const;
  // Records a call of `method` refused with a plain HTTP status (no code).
  void ObserveHttp(const Call& call, int status) const;

  const IdentityService& service_;
  Metrics* metrics_;
  HandlerOptions options_;
};

}  // namespace idres::api
