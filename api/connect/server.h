// Server: `idres serve`'s network side — the IdentityService over the Connect
// protocol on HTTP/1.1 (or HTTPS only, when a certificate is given), plus
// GET /healthz and GET /metrics (api/rpc_handler.h says what each answers).
//
// I/O runs on `io_threads` threads with C++20 coroutines. Upserts are
// decoded on the I/O threads and handed to the backend's Submit, which
// groups them (Engine::Submit); no thread waits for them. Every other call
// runs the handler, which calls the database, on a separate pool of
// `worker_threads` threads, never on an I/O thread; a handler thread blocks
// while its call waits for the database.
//
// Thread-safety: construct and Run() on one thread; Stop() from any thread.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include <functional>

#include "api/service/limits.h"
#include "api/service/metrics.h"
#include "api/service/service.h"

namespace idres::api {

struct ServerOptions {
  std::string listen = "127.0.0.1:8080";  // host:port; port 0 picks a free one
  std::string tls_cert;                   // PEM chain; with tls_key: HTTPS only
  std::string tls_key;                    // PEM private key
  Limits limits;                          // max_body_bytes is the session's
  int io_threads = 2;
  int worker_threads = 16;  // for calls other than Upsert
  int pool_size = 16;       // the engine's, reported on /metrics
  // Deadline for each read of a request (headers, then body) and each write;
  // a client that stays silent longer is disconnected.
  std::chrono::milliseconds read_timeout{30000};
  // How long a stop waits for in-flight calls before closing them.
  std::chrono::milliseconds shutdown_timeout{10000};
  // Called once, on a network thread, when a stop begins (a signal or
  // Stop()), so that other transports drain at the same time; must not block.
  std::function<void()> on_stop;
  // When set, called on a network thread at each SIGHUP (the tokens file is
  // re-read there); it runs quickly and never throws. Unset: SIGHUP is left
  // alone.
  std::function<void()> on_hangup;
};

class Server {
 public:
  // Binds and listens; throws std::runtime_error when the address cannot be
  // used or the certificate or key cannot be loaded. `service` and
  // `metrics` (the service's; may be null) must outlive the server.
  Server(ServerOptions options, const IdentityService& service, Metrics* metrics);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The port actually bound.
  int port() const;

  // Serves until SIGTERM, SIGINT or Stop(); then stops accepting, lets
  // in-flight calls finish within shutdown_timeout, and returns. Calls
  // still running at that bound (stuck on a lock or an unanswering
  // database) are abandoned: the process exits at once with status 1, and
  // PostgreSQL rolls their transactions back when the connections close.
  void Run();

  // Asks Run() to stop as if SIGTERM had arrived.
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace idres::api
