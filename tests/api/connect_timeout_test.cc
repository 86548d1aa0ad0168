#include "api/connect/connect_timeout.h"

#include <catch2/catch.hpp>

namespace idres::api {
namespace {

using std::chrono::milliseconds;

HttpRequest WithTimeout(std::optional<std::string> value) {
  HttpRequest r;
  r.connect_timeout_ms = std::move(value);
  r.received_at = Deadline::Clock::now();
  return r;
}

TEST_CASE("Without Connect-Timeout-Ms a call has no deadline") {
  const auto d = DeadlineOf(WithTimeout(std::nullopt));
  REQUIRE(std::holds_alternative<Deadline>(d));
  CHECK_FALSE(std::get<Deadline>(d).IsSet());
}

TEST_CASE("Connect-Timeout-Ms counts from when the request was read") {
  HttpRequest r = WithTimeout("1500");
  const auto d = DeadlineOf(r);
  REQUIRE(std::holds_alternative<Deadline>(d));
  CHECK(std::get<Deadline>(d).at() == *r.received_at + milliseconds(1500));
  // Ten digits, the most the protocol allows, fit.
  const auto longest = DeadlineOf(WithTimeout("9999999999"));
  REQUIRE(std::holds_alternative<Deadline>(longest));
  CHECK_FALSE(std::get<Deadline>(longest).Passed());
  // Zero is valid and already over.
  const auto zero = DeadlineOf(WithTimeout("0"));
  REQUIRE(std::holds_alternative<Deadline>(zero));
  CHECK(std::get<Deadline>(zero).Passed());
}

TEST_CASE("A malformed Connect-Timeout-Ms is invalid_argument naming the value") {
  for (const char* bad : {"", "12345678901", "-5", "+5", " 5", "5 ", "1.5", "5s", "abc", "0x10"}) {
    INFO(bad);
    const auto d = DeadlineOf(WithTimeout(bad));
    REQUIRE(std::holds_alternative<RpcError>(d));
    CHECK(std::get<RpcError>(d).code == Code::kInvalidArgument);
    CHECK_THAT(std::get<RpcError>(d).message, Catch::Contains("Connect-Timeout-Ms"));
  }
}

}  // namespace
}  // namespace idres::api
