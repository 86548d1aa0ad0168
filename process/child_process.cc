#include "process/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string_view>
#include <thread>

namespace idres {
namespace {

int Decode(int raw) { return WIFEXITED(raw) ? WEXITSTATUS(raw) : -WTERMSIG(raw); }

// Whether `entry` (NAME=VALUE) names a variable `added` sets.
bool Overridden(std::string_view entry, const std::vector<std::string>& added) {
  const std::string_view name = entry.substr(0, entry.find('=') + 1);
  for (const std::string& a : added) {
    if (std::string_view(a).substr(0, a.find('=') + 1) == name) return true;
  }
  return false;
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& log_path,
                           const std::vector<std::string>& env)
    : log_path_(log_path) {
  if (argv.empty()) throw std::invalid_argument("ChildProcess needs a program");
  // Everything the child uses is made before fork(): after it, only
  // async-signal-safe calls.
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> envp;
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  for (char** e = environ; *e != nullptr; ++e) {
    if (!Overridden(*e, env)) envp.push_back(*e);
  }
  envp.push_back(nullptr);
  const int log_fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) throw std::runtime_error("cannot open " + log_path);
  pid_ = ::fork();
  if (pid_ < 0) {
    ::close(log_fd);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid_ == 0) {
    ::dup2(log_fd, 1);
    ::dup2(log_fd, 2);
    ::execvpe(args[0], args.data(), envp.data());
    ::_exit(127);
  }
  ::close(log_fd);
}

ChildProcess::~ChildProcess() {
  if (!status_) Stop(std::chrono::seconds(5));
}

std::optional<int> ChildProcess::Poll() {
  if (status_) return status_;
  int raw = 0;
  if (::waitpid(pid_, &raw, WNOHANG) == pid_) status_ = Decode(raw);
  return status_;
}

int ChildProcess::Wait() {
  if (status_) return *status_;
  int raw = 0;
  while (::waitpid(pid_, &raw, 0) < 0 && errno == EINTR) {
  }
  status_ = Decode(raw);
  return *status_;
}

void ChildProcess::Signal(int signal) {
  if (!Poll()) ::kill(pid_, signal);
}

int ChildProcess::Stop(std::chrono::seconds grace) {
  Signal(SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while (std::chrono::steady_clock::now() < deadline) {
    if (Poll()) return *status_;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  Signal(SIGKILL);
  return Wait();
}

std::string ChildProcess::Log(std::size_t max_bytes) const {
  std::ifstream in(log_path_);
  const std::string all{std::istreambuf_iterator<char>(in), {}};
  return all.size() <= max_bytes ? all : all.substr(all.size() - max_bytes);
}

int RunToEnd(const std::vector<std::string>& argv, const std::string& log_path) {
  return ChildProcess(argv, log_path).Wait();
}

}  // namespace idres
