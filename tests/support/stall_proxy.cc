#include "tests/support/stall_proxy.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cctype>
#include <chrono>

#include "engine/database_url.h"

namespace idres::testing {
namespace {

int ConnectTo(const std::string& host, const std::string& port) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0) return -1;
  int fd = ::socket(found->ai_family, SOCK_STREAM, 0);
  if (::connect(fd, found->ai_addr, found->ai_addrlen) != 0) {
    ::close(fd);
    fd = -1;
  }
  ::freeaddrinfo(found);
  return fd;
}

}  // namespace

StallProxy::StallProxy(const std::string& url) {
  const HostPort upstream = HostPortOf(url);
  host_ = upstream.host;
  port_ = std::to_string(upstream.port);
  listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&addr), len) == 0);
  REQUIRE(::listen(listener_, 16) == 0);
  REQUIRE(::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
  url_ = WithHostPort(url, {"127.0.0.1", ntohs(addr.sin_port)});
  acceptor_ = std::thread([this] { Accept(); });
}

StallProxy::~StallProxy() {
  stopping_ = true;
  ::shutdown(listener_, SHUT_RDWR);
  acceptor_.join();
  ::close(listener_);
  MutexLock lock(&mu_);
  for (std::thread& t : relays_) t.join();
}

void StallProxy::Accept() {
  while (!stopping_) {
    const int client = ::accept(listener_, nullptr, nullptr);
    if (client < 0) return;  // shut down
    const int server = ConnectTo(host_, port_);
    if (server < 0) {
      ::close(client);
      continue;
    }
    MutexLock lock(&mu_);
    relays_.emplace_back([this, client, server] { Relay(client, server); });
  }
}

void StallProxy::StallAt(const std::string& marker) {
  MutexLock lock(&marker_mu_);
  marker_ = marker;
}

bool StallProxy::Withheld(std::string_view bytes) {
  MutexLock lock(&marker_mu_);
  if (marker_.empty()) return false;
  // The marker as a word: "COMMIT" is not in "READ COMMITTED".
  bool found = false;
  for (auto at = bytes.find(marker_); at != std::string_view::npos && !found;
       at = bytes.find(marker_, at + 1)) {
    const std::size_t end = at + marker_.size();
    found = end == bytes.size() ||
            !(std::isalnum(static_cast<unsigned char>(bytes[end])) || bytes[end] == '_');
  }
  if (!found) return false;
  marker_.clear();
  stalled_ = true;
  return true;
}

void StallProxy::Relay(int client, int server) {
  char buffer[16384];
  while (!stopping_) {
    if (stalled_) {  // bytes wait in the sockets, unread
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
    // Wakes now and then to see whether it must stall or stop.
    if (::poll(fds, 2, 20) <= 0) continue;
    bool closed = false;
    for (int i = 0; i < 2 && !closed; ++i) {
      if (fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0 && i == 0 && Withheld({buffer, static_cast<std::size_t>(n)})) break;
      closed = n <= 0 || ::write(fds[1 - i].fd, buffer, static_cast<std::size_t>(n)) != n;
    }
    if (closed) break;
  }
  ::close(client);
  ::close(server);
}

}  // namespace idres::testing
