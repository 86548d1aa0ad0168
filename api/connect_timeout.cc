#include "api/connect_timeout.h"

#include <algorithm>
#include <string>

namespace idres::api {
namespace {

constexpr std::size_t kMaxDigits = 10;

bool IsTimeout(const std::string& value) {
  return !value.empty() && value.size() <= kMaxDigits &&
         std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::variant<Deadline, RpcError> DeadlineOf(const HttpRequest& request) {
  if (!request.connect_timeout_ms) return Deadline{};
  const std::string& value = *request.connect_timeout_ms;
  if (!IsTimeout(value)) {
    return RpcError{
        Code::kInvalidArgument,
        "Connect-Timeout-Ms must be 1 to 10 digits (milliseconds), got " + JsonQuote(value)};
  }
  // Ten digits fit in 64 bits; no overflow below.
  const std::chrono::milliseconds timeout(std::stoll(value));
  return Deadline::At(request.received_at.value_or(Deadline::Clock::now()) + timeout);
}

}  // namespace idres::api
