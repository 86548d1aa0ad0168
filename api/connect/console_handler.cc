#include "api/connect/console_handler.h"

#include <string_view>

#include "api/connect/console_files.h"

namespace idres::api {
namespace {

constexpr std::string_view kRoot = "/console";

HttpResponse Plain(int status, std::string body) {
  return {status, "text/plain; charset=utf-8", std::move(body)};
}

}  // namespace

std::optional<HttpResponse> ConsoleResponse(const HttpRequest& request) {
  const std::string_view target = request.target;
  const std::string_view path = target.substr(0, target.find('?'));
  if (path.substr(0, kRoot.size()) != kRoot) return std::nullopt;
  const std::string_view rest = path.substr(kRoot.size());
  if (!rest.empty() && rest.front() != '/') return std::nullopt;  // "/consoles" is not ours
  if (request.method != "GET") return Plain(405, "use GET\n");
  if (rest.empty()) {
    HttpResponse moved = Plain(308, "moved to /console/\n");
    moved.headers.emplace_back("Location", "/console/");
    return moved;
  }
  const ConsoleFile* file = FindConsoleFile(rest.substr(1));
  if (file == nullptr) return Plain(404, "not found\n");
  HttpResponse response{200, std::string(file->content_type), std::string(file->bytes)};
  // The page fetches, runs and styles only what this server sends, and no
  // other site may frame it (its buttons split and merge persons).
  response.headers.emplace_back("Content-Security-Policy",
                                "default-src 'self'; frame-ancestors 'none'");
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  return response;
}

}  // namespace idres::api
