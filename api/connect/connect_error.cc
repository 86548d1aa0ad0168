#include "api/connect/connect_error.h"

#include <nlohmann/json.hpp>

#include "normalize/utf8.h"

namespace idres::api {
namespace {

// Indexed by the code's number less one (enum Code).
constexpr int kHttpStatus[] = {499, 500, 400, 504, 404, 409, 403, 429,
                               400, 409, 400, 501, 500, 503, 500, 401};

}  // namespace

int HttpStatus(Code code) { return kHttpStatus[static_cast<int>(code) - 1]; }

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
