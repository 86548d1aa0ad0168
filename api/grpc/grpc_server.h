// GrpcServer: `idres serve --grpc-listen`'s gRPC side — the same
// idres.v1.IdentityService as the Connect server (api/connect/server.h),
// over HTTP/2 with grpc++'s callback API, beside it: every unary method,
// UpsertStream and WatchChanges, the standard health service
// (grpc.health.v1.Health) and server reflection (grpc.reflection.v1alpha).
// It translates only; the transport-neutral service decides
// (api/service/service.h). No thread of ours blocks inside gRPC: an Upsert
// is handed to the engine, other calls run on a pool of `worker_threads`
// threads of their own.
//
// Thread-safety: construct on one thread; BeginShutdown() and Wait() from
// any one thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "api/service/service.h"

namespace idres::api {

struct GrpcOptions {
  std::string listen;    // host:port; port 0 picks a free one
  std::string tls_cert;  // PEM chain; with tls_key: TLS only
  std::string tls_key;   // PEM private key
  // The largest message the server takes (Connect's body limit); a larger
  // one is refused with RESOURCE_EXHAUSTED by gRPC before it is decoded.
  std::size_t max_message_bytes = 1 << 20;
  int worker_threads = 16;
  // How long a stop waits for in-flight calls before cancelling them.
  std::chrono::milliseconds shutdown_timeout{10000};
};

class GrpcServer {
 public:
  // Binds and starts serving; throws std::runtime_error when the address
  // cannot be used or the certificate or key cannot be read. `service` must
  // outlive the server.
  GrpcServer(GrpcOptions options, const IdentityService& service);
  // Stops as BeginShutdown() and Wait() do, when they were not called.
  ~GrpcServer();
  GrpcServer(const GrpcServer&) = delete;
  GrpcServer& operator=(const GrpcServer&) = delete;

  // The port actually bound.
  int port() const;

  // Begins a graceful stop and returns at once: no new calls; the open
  // streams end (WatchChanges with OK, UpsertStream after answering what it
  // applied); in-flight calls get until shutdown_timeout, then gRPC cancels
  // them.
  void BeginShutdown();
  // Waits for the stop to end. Calls still running a little after the bound
  // (stuck on a lock or an unanswering database) are abandoned: the process
  // exits at once with status 1, as the Connect server does.
  void Wait();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace idres::api
