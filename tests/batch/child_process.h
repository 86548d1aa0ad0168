// ChildProcess: runs a program (the real `idres` binary) as a child with its
// output sent to a log file, so tests can wait for it, or SIGKILL it.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace idres::testing {

class ChildProcess {
 public:
  ChildProcess(const std::vector<std::string>& args, const std::string& log_path) {
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                     0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + args[0]);
  }
  ~ChildProcess() {
    if (!status_) {
      ::kill(pid_, SIGKILL);
      Wait();
    }
  }

  // The wait status once the child ended, nullopt while it runs.
  std::optional<int> Poll() {
    if (status_) return status_;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) status_ = status;
    return status_;
  }

  // Blocks until the child ends; its wait status.
  int Wait() {
    if (status_) return *status_;
    int status = 0;
    ::waitpid(pid_, &status, 0);
    status_ = status;
    return status;
  }

  void Kill() { ::kill(pid_, SIGKILL); }

 private:
  pid_t pid_ = 0;
  std::optional<int> status_;
};

// Runs `args` to the end; the exit code (-1 when killed by a signal).
inline int RunToEnd(const std::vector<std::string>& args, const std::string& log_path) {
  int status = ChildProcess(args, log_path).Wait();
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace idres::testing
