#include "api/connect/connect_error.h"

#include <catch2/catch.hpp>

namespace idres::api {
namespace {

TEST_CASE("Connect codes map to the protocol's HTTP statuses") {
  CHECK(HttpStatus(Code::kInvalidArgument) == 400);
  CHECK(HttpStatus(Code::kUnauthenticated) == 401);
  CHECK(HttpStatus(Code::kPermissionDenied) == 403);
  CHECK(HttpStatus(Code::kNotFound) == 404);
  CHECK(HttpStatus(Code::kAlreadyExists) == 409);
  CHECK(HttpStatus(Code::kResourceExhausted) == 429);
  CHECK(HttpStatus(Code::kCanceled) == 499);
  CHECK(HttpStatus(Code::kInternal) == 500);
  CHECK(HttpStatus(Code::kUnimplemented) == 501);
  CHECK(HttpStatus(Code::kUnavailable) == 503);
  CHECK(HttpStatus(Code::kDeadlineExceeded) == 504);
}

TEST_CASE("Connect code names are the protocol's snake_case names") {
  CHECK(CodeName(Code::kInvalidArgument) == "invalid_argument");
  CHECK(CodeName(Code::kResourceExhausted) == "resource_exhausted");
  CHECK(CodeName(Code::kUnavailable) == "unavailable");
  CHECK(CodeName(Code::kUnauthenticated) == "unauthenticated");
  CHECK(CodeName(Code::kDataLoss) == "data_loss");
}

TEST_CASE("An error response is the code's status with a JSON {code, message} body") {
  const HttpResponse r = ErrorResponse({Code::kNotFound, "no person \"7\"\n"});
  CHECK(r.status == 404);
  CHECK(r.content_type == "application/json");
  CHECK(r.body == R"({"code":"not_found","message":"no person \"7\"\n"})");
}

TEST_CASE("JsonQuote escapes control characters and repairs invalid UTF-8") {
  CHECK(JsonQuote("a\x01"
                  "b") == "\"a\\u0001b\"");
  CHECK(JsonQuote("\xff") == "\"\xEF\xBF\xBD\"");
  CHECK(JsonQuote("é") == "\"é\"");
}

}  // namespace
}  // namespace idres::api
