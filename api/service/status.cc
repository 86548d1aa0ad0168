#include "api/service/status.h"

namespace idres::api {
namespace {

// Indexed by the code's number less one.
constexpr std::string_view kNames[] = {
    "canceled",
    "unknown",
    "invalid_argument",
    "deadline_exceeded",
    "not_found",
    "already_exists",
    "permission_denied",
    "resource_exhausted",
    "failed_precondition",
    "aborted",
    "out_of_range",
    "unimplemented",
    "internal",
    "unavailable",
    "data_loss",
    "unauthenticated",
};

}  // namespace

std::string_view CodeName(Code code) { return kNames[static_cast<int>(code) - 1]; }

std::optional<Code> CodeNamed(std::string_view name) {
  for (const Code code : kAllCodes) {
    if (CodeName(code) == name) return code;
  }
  return std::nullopt;
}

std::optional<Code> CodeNumbered(int number) {
  if (number < 1 || number > static_cast<int>(std::size(kAllCodes))) return std::nullopt;
  return static_cast<Code>(number);
}

}  // namespace idres::api
