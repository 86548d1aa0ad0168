// ServerProcess: a real `idres serve` (the binary at env IDRES_BINARY) on a
// free port in 18300-18399 (and, with `grpc`, gRPC on that port + 100, in
// 18400-18499), started for one test and stopped with SIGTERM when the
// object goes away. Its log goes to a temporary file, printed when
// it fails to start.
//
// Thread-safety: one thread owns the object; port() may be read from any.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "process/child_process.h"

namespace idres::testing {

struct ServeOptions {
  std::string database_url;
  std::vector<std::string> args;  // more flags, e.g. {"--auth-token", "t"}
  std::vector<std::string> env;   // NAME=VALUE added to the environment
  bool https = false;             // wait for readiness over TLS
  int pool_size = 16;
  bool grpc = false;  // --grpc-listen too
};

class ServerProcess {
 public:
  // Starts the server and waits until GET /healthz answers 200. Fails the
  // test (with the server's log) when it does not.
  explicit ServerProcess(ServeOptions options);
  // With these flags after --database-url `database_url`.
  explicit ServerProcess(const std::string& database_url, std::vector<std::string> args = {});
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  int port() const { return port_; }
  // The gRPC port; 0 without `grpc`.
  int grpc_port() const { return grpc_port_; }
  // "127.0.0.1:<grpc_port>".
  std::string grpc_target() const { return "127.0.0.1:" + std::to_string(grpc_port_); }

  // Starts the server again on the same ports, once the last one ended
  // (Signal and Wait). Fails the test when it does not come up.
  void Restart();

  // Sends `signal` to the server.
  void Signal(int signal);

  // Waits for the server to exit; its exit status (128+n when killed by
  // signal n).
  int Wait();

  // The server's log so far.
  std::string Log() const;

 private:
  bool Start(int port);

  ServeOptions options_;
  int port_ = 0;
  int grpc_port_ = 0;
  std::unique_ptr<ChildProcess> child_;  // the latest start's
  std::string log_path_;
};

}  // namespace idres::testing
