#include "tests/api/server_process.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "tests/api/http_client.h"
#include "tests/support/idres_process.h"

namespace idres::testing {
namespace {

constexpr int kFirstPort = 18300;
constexpr int kPorts = 100;

bool PortFree(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool free = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  return free;
}

// Spreads concurrent test processes over the range.
int NextPort() {
  static std::atomic<int> next{static_cast<int>(getpid() * 7919 % kPorts)};
  for (int i = 0; i < kPorts; ++i) {
    const int port = kFirstPort + next.fetch_add(1) % kPorts;
    if (PortFree(port)) return port;
  }
  FAIL("no free port in 18300-18399");
  return 0;
}

}  // namespace

ServerProcess::ServerProcess(ServeOptions options) : options_(std::move(options)) {
  for (int attempt = 0; attempt < 5; ++attempt) {
    const int port = NextPort();
    if (options_.grpc && !PortFree(port + kPorts)) continue;
    if (Start(port)) return;
  }
  FAIL("idres serve did not start; its log:\n" << Log());
}

ServerProcess::ServerProcess(const std::string& database_url, std::vector<std::string> args)
    : ServerProcess(ServeOptions{database_url, std::move(args), {}, false, 16, false}) {}

ServerProcess::~ServerProcess() {
  if (child_) {
    Signal(SIGTERM);
    Wait();
  }
  if (!log_path_.empty()) std::remove(log_path_.c_str());
}

void ServerProcess::Restart() {
  for (int attempt = 0; attempt < 5; ++attempt) {
    if (Start(port_)) return;
  }
  FAIL("idres serve did not start again; its log:\n" << Log());
}

bool ServerProcess::Start(int port) {
  port_ = port;
  if (options_.grpc) grpc_port_ = port + kPorts;
  if (log_path_.empty()) {
    log_path_ = "/tmp/idres-api-test-" + std::to_string(getpid()) + "-" +
                std::to_string(reinterpret_cast<std::uintptr_t>(this)) + ".log";
  }
  std::vector<std::string> args = {IdresBinary(),    "serve",
                                   "--listen",       "127.0.0.1:" + std::to_string(port),
                                   "--database-url", options_.database_url};
  if (std::find(options_.args.begin(), options_.args.end(), "--pool-size") == options_.args.end()) {
    args.insert(args.end(), {"--pool-size", std::to_string(options_.pool_size)});
  }
  if (options_.grpc) args.insert(args.end(), {"--grpc-listen", grpc_target()});
  args.insert(args.end(), options_.args.begin(), options_.args.end());
  child_ = std::make_unique<ChildProcess>(args, log_path_, options_.env);
  // Readiness, not timing: poll until /healthz answers or the process dies.
  // The port was free when chosen, but a server of a concurrent test may
  // have taken it since (and answer /healthz): only once our own server
  // logs that it serves on this port is the port ours.
  for (int i = 0; i < 600; ++i) {
    if (child_->Poll()) return false;
    const bool grpc_up = !options_.grpc || Log().find("serving gRPC") != std::string::npos;
    if (!LogSaysServing(Log(), port) || !grpc_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    try {
      HttpClient client(port_, options_.https);
      if (client.Get("/healthz").status == 200) return true;
    } catch (const std::exception&) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  Signal(SIGKILL);
  Wait();
  return false;
}

void ServerProcess::Signal(int signal) {
  if (child_) child_->Signal(signal);
}

int ServerProcess::Wait() {
  if (!child_) return -1;
  const int status = child_->Wait();
  return status < 0 ? 128 - status : status;
}

std::string ServerProcess::Log() const { return child_ ? child_->Log() : ""; }

}  // namespace idres::testing
