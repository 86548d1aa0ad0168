#include "tests/api/http_client.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

// Boost 1.74's asio headers use std::exchange without <utility>.
#include <utility>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <stdexcept>

namespace idres::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;

RawConnection::RawConnection(int port) {
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(
      tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
  fd_ = socket.release();
}

RawConnection::~RawConnection() {
  if (fd_ >= 0) close(fd_);
}

bool RawConnection::Send(const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

void RawConnection::ShutdownSend() { shutdown(fd_, SHUT_WR); }

std::string RawConnection::ReadUntilClosed(int bound_seconds) {
  std::string out = std::move(pending_);
  pending_.clear();
  char buf[65536];
  for (;;) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, bound_seconds * 1000) <= 0) throw std::runtime_error("server never closed");
    const ssize_t n = recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) return out;  // closed (0) or reset (<0): either way, gone
    out.append(buf, static_cast<std::size_t>(n));
  }
}

HttpReply RawConnection::ReadResponse(int bound_seconds) {
  std::string data = std::move(pending_);
  pending_.clear();
  char buf[65536];
  auto fill = [&] {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, bound_seconds * 1000) <= 0) throw std::runtime_error("no response");
    const ssize_t n = recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) throw std::runtime_error("closed before a full response");
    data.append(buf, static_cast<std::size_t>(n));
  };
  while (data.find("\r\n\r\n") == std::string::npos) fill();
  const std::size_t head_end = data.find("\r\n\r\n") + 4;
  http::response_parser<http::string_body> parser;
  beast::error_code ec;
  parser.eager(true);
  std::size_t used = parser.put(asio::buffer(data.data(), head_end), ec);
  if (ec && ec != http::error::need_more) throw std::runtime_error("bad response: " + ec.message());
  while (!parser.is_done()) {
    if (used >= data.size()) fill();
    used += parser.put(asio::buffer(data.data() + used, data.size() - used), ec);
    if (ec == http::error::need_more) ec = {};
    if (ec) throw std::runtime_error("bad response: " + ec.message());
  }
  pending_ = data.substr(used);
  const auto& response = parser.get();
  return {static_cast<int>(response.result_int()), std::string(response[http::field::content_type]),
          response.body()};
}

}  // namespace idres::testing
