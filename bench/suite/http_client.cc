#include "bench/suite/http_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace idres::bench {
namespace {

int OpenSocket(const std::string& host, int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  if (::inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) {
    ::close(fd);
    throw std::runtime_error("not an IPv4 address: " + host);
  }
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    const int err = errno;
    ::close(fd);
    throw std::runtime_error("connect " + host + ":" + std::to_string(port) + ": " +
                             std::strerror(err));
  }
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

bool PortOpen(const std::string& host, int port) {
  try {
    ::close(OpenSocket(host, port));
    return true;
  } catch (const std::runtime_error&) {
    return false;
  }
}

HttpConnection::HttpConnection(std::string host, int port) : host_(std::move(host)), port_(port) {}

HttpConnection::~HttpConnection() { Close(); }

void HttpConnection::Connect() {
  Close();
  fd_ = OpenSocket(host_, port_);
}

void HttpConnection::Close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  buffer_.clear();
}

HttpResponse HttpConnection::Post(std::string_view path, std::string_view body,
                                  std::string_view content_type) {
  std::string req = "POST " + std::string(path) + " HTTP/1.1\r\nHost: " + host_ +
                    "\r\nContent-Type: " + std::string(content_type) +
                    "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  req.append(body);
  return RoundTrip(req);
}

HttpResponse HttpConnection::Get(std::string_view path) {
  return RoundTrip("GET " + std::string(path) + " HTTP/1.1\r\nHost: " + host_ + "\r\n\r\n");
}

HttpResponse HttpConnection::RoundTrip(const std::string& request) {
  const bool reused = fd_ >= 0;
  try {
    if (!reused) Connect();
    return TryRoundTrip(request);
  } catch (const std::runtime_error&) {
    // A kept-alive connection the server closed meanwhile: one fresh try.
    if (!reused) throw;
    Connect();
    return TryRoundTrip(request);
  }
}

HttpResponse HttpConnection::TryRoundTrip(const std::string& request) {
  std::size_t sent = 0;
  while (sent < request.size()) {
    const ssize_t n = ::send(fd_, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      Close();
      throw std::runtime_error(std::string("send: ") + std::strerror(errno));
    }
    sent += static_cast<std::size_t>(n);
  }
  const std::string head = ReadHead();
  HttpResponse response;
  const auto sp = head.find(' ');
  response.status = sp == std::string::npos ? 0 : std::atoi(head.c_str() + sp + 1);
  const std::string lower = Lower(head);
  const auto cl = lower.find("\r\ncontent-length:");
  if (cl == std::string::npos) {
    Close();
    throw std::runtime_error("response without Content-Length");
  }
  const auto length = static_cast<std::size_t>(std::atoll(head.c_str() + cl + 17));
  while (buffer_.size() < length) {
    char chunk[16384];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) {
      Close();
      throw std::runtime_error("connection closed in a response body");
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
  response.body = buffer_.substr(0, length);
  buffer_.erase(0, length);
  if (lower.find("\r\nconnection: close") != std::string::npos) Close();
  return response;
}

// Reads up to the end of the header block; returns it and leaves what follows
// in buffer_.
std::string HttpConnection::ReadHead() {
  for (;;) {
    const auto end = buffer_.find("\r\n\r\n");
    if (end != std::string::npos) {
      std::string head = buffer_.substr(0, end + 2);
      buffer_.erase(0, end + 4);
      return head;
    }
    char chunk[16384];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) {
      Close();
      throw std::runtime_error("connection closed before a response");
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace idres::bench
