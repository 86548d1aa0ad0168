#include "batch/service_call.h"

#include <chrono>

#include "client/client_requests.h"
#include "client/http_client.h"
#include "client/status_errors.h"
#include "engine/errors.h"

namespace idres::batch {
namespace {

constexpr auto kTimeout = std::chrono::seconds(120);
constexpr std::size_t kMaxResponseBytes = 64 * 1024 * 1024;

[[noreturn]] void ThrowConnectError(int status, const std::string& body) {
  std::string message;
  const std::string name = client::ConnectErrorCode(body, &message);
  if (status == 413) throw RequestTooLargeError("HTTP 413: " + message);
  const auto code = api::CodeNamed(name);
  client::ThrowStatus(code.value_or(api::Code::kUnknown),
                      "server answered " + std::to_string(status) + " " + name + ": " + message);
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
  client::HttpClientOptions options;
  options.timeout = kTimeout;
  options.max_body_bytes = kMaxResponseBytes;
  options.prefix = url.prefix;
  client::HttpHeaders headers;
  if (!token.empty()) headers["Authorization"] = "Bearer " + token;
  client::HttpResponse response;
  try {
    response = client::HttpClient(url.host, url.port, options)
                   .Call(method, std::move(body), headers, content_type);
  } catch (const client::HttpClientError& e) {
    throw UnavailableError(e.what());
  }
  if (response.status != 200) ThrowConnectError(response.status, response.body);
  return std::move(response.body);
}

}  // namespace idres::batch
