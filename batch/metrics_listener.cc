#include "batch/metrics_listener.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace idres::batch {
namespace {

constexpr int kPollMs = 200;
constexpr std::size_t kMaxRequest = 8192;

std::runtime_error SocketError(const std::string& what, const std::string& listen) {
  return std::runtime_error("--metrics-listen " + listen + ": " + what + ": " +
                            std::strerror(errno));
}

sockaddr_in ParseAddress(const std::string& listen) {
  const auto colon = listen.rfind(':');
  sockaddr_in address{};
  address.sin_family = AF_INET;
  int port = -1;
  try {
    if (colon != std::string::npos) port = std::stoi(listen.substr(colon + 1));
  } catch (const std::exception&) {
  }
  const std::string host = colon == std::string::npos ? "" : listen.substr(0, colon);
  if (port < 0 || port > 65535 || inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1) {
    throw std::runtime_error("--metrics-listen " + listen + ": expected IPv4-ADDRESS:PORT");
  }
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  return address;
}

void WriteAll(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return;  // the scraper went away: nothing to tell it
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

MetricsListener::MetricsListener(const std::string& listen, std::function<std::string()> render)
    : render_(std::move(render)) {
  const sockaddr_in address = ParseAddress(listen);
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw SocketError("socket", listen);
  const int on = 1;
  ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (::bind(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(fd_, 16) != 0) {
    const auto error = SocketError("bind", listen);
    ::close(fd_);
    throw error;
  }
  sockaddr_in bound{};
  socklen_t length = sizeof bound;
  ::getsockname(fd_, reinterpret_cast<sockaddr*>(&bound), &length);
  port_ = ntohs(bound.sin_port);
  thread_ = std::thread([this] { Serve(); });
}

MetricsListener::~MetricsListener() {
  stop_ = true;
  thread_.join();
  ::close(fd_);
}

void MetricsListener::Serve() {
  while (!stop_) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, kPollMs) <= 0) continue;
    const int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    Answer(client);
    ::close(client);
  }
}

void MetricsListener::Answer(int fd) {
  // A scraper that sends nothing must not hold the only thread.
  const timeval timeout{2, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  std::string request;
  char buffer[1024];
  while (request.find("\r\n\r\n") == std::string::npos && request.size() < kMaxRequest) {
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) return;
    request.append(buffer, static_cast<std::size_t>(n));
  }
  const bool metrics = request.starts_with("GET /metrics ") || request.starts_with("GET /metrics?");
  const std::string body = metrics ? render_() : "not found\n";
  WriteAll(fd, std::string(metrics ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.1 404 Not Found\r\n") +
                   "Content-Type: text/plain; version=0.0.4\r\nContent-Length: " +
                   std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
}

}  // namespace idres::batch
