// ChildProcess: a program the benchmark starts and stops (`idres serve`,
// `idres import`, pgbench). Output goes to a log file so a failure can be
// shown; the destructor stops a child still running (SIGTERM, then SIGKILL).
//
// Thread-safety: none; owned by the thread that started it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace idres::bench {

class ChildProcess {
 public:
  // Starts `argv[0]` with `argv`, stdout and stderr appended to `log_path`,
  // in `cwd` when not empty. Throws std::runtime_error if it cannot start.
  ChildProcess(const std::vector<std::string>& argv, const std::string& log_path,
               const std::string& cwd = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // The exit status if the child has ended (-signal when killed by one).
  std::optional<int> Poll();

  // Waits for the child to end and returns its exit status.
  int Wait();

  // SIGTERM, up to `grace` to exit, then SIGKILL. Returns the exit status.
  int Stop(std::chrono::seconds grace = std::chrono::seconds(10));

  // The last `max_bytes` of the log, for error messages.
  std::string LogTail(std::size_t max_bytes = 2000) const;

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
  std::string log_path_;
};

// Runs `argv` to completion; returns its exit status. Output to `log_path`.
int RunToEnd(const std::vector<std::string>& argv, const std::string& log_path,
             const std::string& cwd = {});

}  // namespace idres::bench
