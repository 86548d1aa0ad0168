#include "client/status_errors.h"

#include <catch2/catch.hpp>

#include "api/service/error_mapping.h"
#include "engine/errors.h"

namespace idres::client {
namespace {

// The code the server answers for the failure `throw_it` throws.
template <typename Throw>
api::Code ServerCode(Throw throw_it) {
  try {
    throw_it();
  } catch (...) {
    return api::MapException(std::current_exception(), "Test").code;
  }
  FAIL("nothing was thrown");
  return api::Code::kUnknown;
}

TEST_CASE("Every code comes back as an error the server maps to that code again") {
  for (const api::Code code : api::kAllCodes) {
    INFO(api::CodeName(code));
    CHECK(ServerCode([code] { ThrowStatus(code, "the server's message"); }) == code);
  }
}

TEST_CASE("The client's error keeps the server's message and says whether to retry") {
  CHECK_THROWS_WITH(ThrowStatus(api::Code::kNotFound, "no person 7"),
                    Catch::Contains("not_found") && Catch::Contains("no person 7"));
  CHECK_THROWS_AS(ThrowStatus(api::Code::kUnavailable, "down"), UnavailableError);
  CHECK_THROWS_AS(ThrowStatus(api::Code::kDeadlineExceeded, "late"), DeadlineError);
  CHECK_THROWS_AS(ThrowStatus(api::Code::kInternal, "bug"), InternalError);
  CHECK_THROWS_AS(ThrowStatus(api::Code::kResourceExhausted, "big"), RequestTooLargeError);
  CHECK_THROWS_AS(ThrowStatus(api::Code::kAborted, "x"), api::StatusError);
}

TEST_CASE("An engine failure crosses the wire as an error a caller retries the same way") {
  const auto retryable_after_the_wire = [](auto failure) {
    try {
      ThrowStatus(ServerCode([&] { throw failure; }), "m");
    } catch (const EngineError& e) {
      return e.retryable();
    } catch (...) {
    }
    return false;
  };
  CHECK(retryable_after_the_wire(BusyError("lock")) == BusyError("").retryable());
  CHECK(retryable_after_the_wire(UnavailableError("down")) == UnavailableError("").retryable());
  CHECK(retryable_after_the_wire(ConflictError("deadlocks")) == ConflictError("").retryable());
  CHECK(retryable_after_the_wire(DeadlineError("late")) == DeadlineError("").retryable());
  CHECK(retryable_after_the_wire(InternalError("bug")) == InternalError("").retryable());
}

TEST_CASE("A code's wire name and gRPC number name that code") {
  for (const api::Code code : api::kAllCodes) {
    CHECK(api::CodeNamed(api::CodeName(code)) == code);
    CHECK(api::CodeNumbered(static_cast<int>(code)) == code);
  }
  CHECK_FALSE(api::CodeNamed("ok"));
  CHECK_FALSE(api::CodeNumbered(0));
  CHECK_FALSE(api::CodeNumbered(17));
}

}  // namespace
}  // namespace idres::client
