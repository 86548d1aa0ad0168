// ChildProcess: a program the benchmark suite or a test starts and stops
// (`idres serve`, `idres import`, pgbench). Output goes to a log file so a
// failure can be shown; the destructor stops a child still running
// (SIGTERM, then SIGKILL). An exit status is the program's exit code, or
// minus the signal that ended it (-9 for SIGKILL).
//
// Thread-safety: none; owned by the thread that started it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace idres {

class ChildProcess {
 public:
  // Starts `argv[0]` (looked up in PATH unless it has a '/') with `argv`
  // and the variables `env` (NAME=VALUE) set, stdout and stderr appended to
  // `log_path`. Throws std::runtime_error if it cannot start.
  ChildProcess(const std::vector<std::string>& argv, const std::string& log_path,
               const std::vector<std::string>& env = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // The exit status if the child has ended.
  std::optional<int> Poll();

  // Waits for the child to end and returns its exit status.
  int Wait();

  // Sends `signal` unless the child has ended.
  void Signal(int signal);

  // SIGTERM, up to `grace` to exit, then SIGKILL. Returns the exit status.
  int Stop(std::chrono::seconds grace = std::chrono::seconds(10));

  // The log so far, or its last `max_bytes`.
  std::string Log(std::size_t max_bytes = std::string::npos) const;

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
  std::string log_path_;
};

// Runs `argv` to completion; returns its exit status. Output to `log_path`.
int RunToEnd(const std::vector<std::string>& argv, const std::string& log_path);

}  // namespace idres
