// The tests' HTTP: the service's one C++ client (client/http_client.h), and
// RawConnection for tests that must misbehave on the wire (slow, truncated
// or oversized requests). Test-only; one thread per object.
#pragma once

#include <string>

#include "client/http_client.h"

namespace idres::testing {

using HttpReply = client::HttpResponse;
using client::HttpClient;

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
