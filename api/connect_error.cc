#include "api/connect_error.h"

#include <nlohmann/json.hpp>

#include "normalize/utf8.h"

namespace idres::api {
namespace {

struct CodeInfo {
  std::string_view name;
  int http_status;
};

// Order follows enum Code.
constexpr CodeInfo kCodes[] = {
    {"canceled", 499},
    {"unknown", 500},
    {"invalid_argument", 400},
    {"deadline_exceeded", 504},
    {"not_found", 404},
    {"already_exists", 409},
    {"permission_denied", 403},
    {"resource_exhausted", 429},
    {"failed_precondition", 400},
    {"aborted", 409},
    {"out_of_range", 400},
    {"unimplemented", 501},
    {"internal", 500},
    {"unavailable", 503},
    {"data_loss", 500},
    {"unauthenticated", 401},
};

}  // namespace

std::string_view CodeName(Code code) { return kCodes[static_cast<int>(code)].name; }

int HttpStatus(Code code) { return kCodes[static_cast<int>(code)].http_status; }

HttpResponse ErrorResponse(const RpcError& error) {
  HttpResponse response;
  response.status = HttpStatus(error.code);
  response.content_type = "application/json";
  response.body = "{\"code\":" + JsonQuote(CodeName(error.code)) +
                  ",\"message\":" + JsonQuote(error.message) + "}";
  return response;
}

std::string JsonQuote(std::string_view s) { return nlohmann::json(ToValidUtf8(s)).dump(); }

}  // namespace idres::api
