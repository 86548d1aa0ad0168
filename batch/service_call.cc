#include "batch/service_call.h"

#include <chrono>

#include "api/client_requests.h"
#include "api/http_client.h"
#include "engine/errors.h"

namespace idres::batch {
namespace {

constexpr auto kTimeout = std::chrono::seconds(120);
constexpr std::size_t kMaxResponseBytes = 64 * 1024 * 1024;

[[noreturn]] void ThrowConnectError(int status, const std::string& body) {
  std::string message;
  std::string code = api::ConnectErrorCode(body, &message);
  std::string what = "server answered " + std::to_string(status) + " " + code + ": " + message;
  if (status == 413 || code == "resource_exhausted") {
    throw RequestTooLargeError(code + ": " + message);
  }
  if (code == "deadline_exceeded") throw BusyError(what);
  if (code == "unavailable") throw UnavailableError(what);
  if (code == "aborted") throw ConflictError(what);
  throw InternalError(what);
}

}  // namespace

ServiceUrl ParseServiceUrl(const std::string& url) {
  const std::string scheme = "http://";
  if (url.rfind(scheme, 0) != 0) throw std::invalid_argument("--server must be http://host:port");
  std::string rest = url.substr(scheme.size());
  std::size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  std::string prefix = slash == std::string::npos ? "" : rest.substr(slash);
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  std::size_t colon = authority.rfind(':');
  return {authority.substr(0, colon),
          colon == std::string::npos ? "80" : authority.substr(colon + 1), prefix};
}

std::string CallService(const ServiceUrl& url, const std::string& token, const std::string& method,
                        std::string body, const std::string& content_type) {
  api::HttpClientOptions options;
  options.timeout = kTimeout;
  options.max_body_bytes = kMaxResponseBytes;
  options.prefix = url.prefix;
  api::HttpHeaders headers;
  if (!token.empty()) headers["Authorization"] = "Bearer " + token;
  api::HttpResponse response;
  try {
    response = api::HttpClient(url.host, url.port, options)
                   .Call(method, std::move(body), headers, content_type);
  } catch (const api::HttpClientError& e) {
    throw UnavailableError(e.what());
  }
  if (response.status != 200) ThrowConnectError(response.status, response.body);
  return std::move(response.body);
}

}  // namespace idres::batch
