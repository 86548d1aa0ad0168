#include "api/connect/connect_timeout.h"

#include <algorithm>
#include <string>

namespace idres::api {

std::variant<Deadline, RpcError> DeadlineOf(const HttpRequest& request) {
  if (!request.connect_timeout_ms) return Deadline{};
  const std::string& value = *request.connect_timeout_ms;
  if (value.empty() || value.size() > 10 ||
      !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return RpcError{
        Code::kInvalidArgument,
        "Connect-Timeout-Ms must be 1 to 10 digits (milliseconds), got " + JsonQuote(value)};
  }
  // Ten digits fit in 64 bits; no overflow below.
  const std::chrono::milliseconds timeout(std::stoll(value));
  return Deadline::At(request.received_at.value_or(Deadline::Clock::now()) + timeout);
}

}  // namespace idres::api
