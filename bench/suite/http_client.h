// HttpConnection: one keep-alive HTTP/1.1 connection to `idres serve`, enough
// for Connect unary calls (POST of a JSON or binary protobuf body) and GET
// /metrics. Plain POSIX sockets, TCP_NODELAY, Content-Length framing only
// (what the server sends). Reconnects once when the server closed an idle
// connection.
//
// Thread-safety: none; each benchmark client owns its own connection.
#pragma once

#include <string>
#include <string_view>

namespace idres::bench {

struct HttpResponse {
  int status = 0;
  std::string body;
};

class HttpConnection {
 public:
  HttpConnection(std::string host, int port);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  // POSTs `body` to `path` with that Content-Type. Throws std::runtime_error
  // on I/O failure.
  HttpResponse Post(std::string_view path, std::string_view body,
                    std::string_view content_type = "application/json");

  // GETs `path`. Throws std::runtime_error on I/O failure.
  HttpResponse Get(std::string_view path);

 private:
  HttpResponse RoundTrip(const std::string& request);
  HttpResponse TryRoundTrip(const std::string& request);
  void Connect();
  void Close();
  std::string ReadHead();  // the status line and headers

  std::string host_;
  int port_;
  int fd_ = -1;
  std::string buffer_;  // bytes read past the previous response
};

// Whether something accepts TCP connections on host:port right now.
bool PortOpen(const std::string& host, int port);

}  // namespace idres::bench
