// Call: one call of the IdentityService as its transport received it, and,
// once IdentityService::Authorize admitted it, who made it. Plain value.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "api/service/access_control.h"
#include "engine/deadline.h"

namespace idres::api {

struct Call {
  std::string_view method;    // "GetPerson", ...: a method of the service
  std::string authorization;  // the credential as sent: "Bearer <token>", or empty
  Deadline deadline;          // from Connect-Timeout-Ms or grpc-timeout
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  Caller caller = {};  // set by Authorize; the actor of a steward's action
};

}  // namespace idres::api
