// HttpClient: a small blocking HTTP/1.1 client over one keep-alive
// connection to 127.0.0.1 (HTTPS when asked, without certificate checks),
// and RawConnection for tests that must misbehave on the wire (slow,
// truncated or oversized requests). Test-only; one thread per object.
#pragma once

#include <map>
#include <memory>
#include <string>

namespace idres::testing {

struct HttpReply {
  int status = 0;
  std::string content_type;
  std::string body;
};

class HttpClient {
 public:
  // Connects (and handshakes); throws on failure.
  HttpClient(int port, bool https = false);
  ~HttpClient();

  HttpReply Post(const std::string& target, const std::string& content_type,
                 const std::string& body, const std::map<std::string, std::string>& headers = {});
  HttpReply Get(const std::string& target, const std::map<std::string, std::string>& headers = {});

  // POST /idres.v1.IdentityService/<method> with a JSON body.
  HttpReply Call(const std::string& method, const std::string& json,
                 const std::map<std::string, std::string>& headers = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A plain TCP connection that sends exactly the bytes given.
class RawConnection {
 public:
  explicit RawConnection(int port);
  ~RawConnection();

  // Sends all of `bytes`; false when the peer closed or reset meanwhile.
  bool Send(const std::string& bytes);
  // Stops sending (half-close), as a client that ends a request early.
  void ShutdownSend();
  // Reads until the server closes the connection; what arrived (possibly
  // empty). `bound_seconds` only guards against hanging the test forever.
  std::string ReadUntilClosed(int bound_seconds = 60);
  // Reads one HTTP response (headers and Content-Length body).
  HttpReply ReadResponse(int bound_seconds = 60);

 private:
  int fd_ = -1;
  std::string pending_;
};

}  // namespace idres::testing
