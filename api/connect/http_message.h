// HttpRequest and HttpResponse: the plain values the RPC handler maps one to
// the other. The session (api/session.cc) fills an HttpRequest from the wire
// and writes the HttpResponse back; keeping Beast out of these types is what
// lets the handler be tested without sockets. Plain values; copyable.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace idres::api {

struct HttpRequest {
  std::string method;         // "POST", "GET", ...
  std::string target;         // path and query, e.g. "/idres.v1.IdentityService/Upsert"
  std::string content_type;   // the Content-Type header, verbatim
  std::string authorization;  // the Authorization header, verbatim
  std::string content_encoding;
  // The Connect-Timeout-Ms and Connect-Protocol-Version headers verbatim;
  // nullopt when absent.
  std::optional<std::string> connect_timeout_ms;
  std::optional<std::string> connect_protocol_version;
  // When the request had been read whole; nullopt: when it is handled.
  std::optional<std::chrono::steady_clock::time_point> received_at;
  std::string body;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  // More headers to send (name, value), e.g. Location; Server, Content-Type
  // and Content-Length are the session's.
  std::vector<std::pair<std::string, std::string>> headers = {};
};

}  // namespace idres::api
