// HttpClient: the one C++ Connect client of `idres serve`: a blocking HTTP/1.1
// connection, kept alive, for Connect unary calls (POST of a JSON or binary
// protobuf body, client/client_requests.h) and GETs (/healthz, /metrics). The
// import's --server (batch/rpc_sink.h), the benchmark suite and the tests
// use it; Beast stays inside (no Beast type here).
//
// The constructor connects (and handshakes, with TLS), so a refused
// connection shows there. A connection the server closed (Connection: close)
// is opened again for the next request; one it closed while idle after
// earlier requests (a request on it fails) is opened again once and the
// request sent again, as browsers do. Every I/O failure is an
// HttpClientError.
//
// Thread-safety: none; one thread per object.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "api/connect/http_message.h"

namespace idres::client {

// The plain response value the server's Connect handler also uses.
using HttpResponse = api::HttpResponse;

struct HttpClientOptions {
  bool tls = false;  // HTTPS, without certificate checks (a test's --tls-cert)
  // Bound on each send and each receive; zero: none.
  std::chrono::milliseconds timeout{0};
  std::size_t max_body_bytes = 256 * 1024 * 1024;  // of a response
  // The service's path before "/idres.v1.IdentityService/" (behind a
  // reverse proxy); empty or "/prefix".
  std::string prefix;
};

// Connecting, sending or receiving failed (refused, reset, timed out).
class HttpClientError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using HttpHeaders = std::map<std::string, std::string>;

class HttpClient {
 public:
  // Connects to `host`:`port` (a name or an address). Throws HttpClientError.
  HttpClient(const std::string& host, const std::string& port, HttpClientOptions options = {});
  // Connects to 127.0.0.1:`port`. Throws HttpClientError.
  explicit HttpClient(int port, bool https = false);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // POSTs `body` to `target` with that Content-Type and `headers`.
  HttpResponse Post(const std::string& target, const std::string& content_type, std::string body,
                    const HttpHeaders& headers = {});
  // GETs `target`.
  HttpResponse Get(const std::string& target, const HttpHeaders& headers = {});
  // A Connect unary call: POST <prefix>/idres.v1.IdentityService/<method>
  // with Connect-Protocol-Version 1 (`headers` may override it).
  HttpResponse Call(const std::string& method, std::string body, const HttpHeaders& headers = {},
                    const std::string& content_type = "application/json");

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Whether something accepts TCP connections on `host`:`port` right now.
bool PortOpen(const std::string& host, int port);

}  // namespace idres::client
