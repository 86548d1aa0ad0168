// ServeChild: a real `idres serve` process on a free port of the suite's
// range, and gRPC (--grpc-listen) on the next free one, serving one
// database, for the runs over Connect and gRPC. Ready once it accepts TCP
// connections; stopped with SIGTERM when destroyed (so its connections close
// and their statistics reach pg_stat_database).
// Thread-safety: none; owned by the run that started it.
#pragma once

#include <memory>
#include <string>

#include "bench/suite/context.h"
#include "process/child_process.h"

namespace idres::bench {

class ServeChild {
 public:
  // Starts the server for `database_url` with `pool` connections and waits up
  // to 30 s for it. Throws std::runtime_error (with the log's tail) if it
  // exits or does not listen.
  ServeChild(const SuiteContext& ctx, const std::string& database_url, int pool);
  ~ServeChild();

  int port() const { return port_; }
  // "127.0.0.1:<the gRPC port>".
  std::string grpc_target() const { return "127.0.0.1:" + std::to_string(grpc_port_); }

  // Stops the server; returns its exit status.
  int Stop();

 private:
  int port_ = 0;
  int grpc_port_ = 0;
  std::unique_ptr<ChildProcess> child_;
};

}  // namespace idres::bench
