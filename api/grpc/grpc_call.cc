#include "api/grpc/grpc_call.h"

#include <chrono>
#include <string>

namespace idres::api {
namespace {

// PostgreSQL's longest timeout (24.8 days): a longer deadline is that long,
// as Connect-Timeout-Ms values are.
constexpr std::chrono::milliseconds kLongest{2147483647};

Deadline DeadlineOf(std::chrono::system_clock::time_point at) {
  if (at == std::chrono::system_clock::time_point::max()) return Deadline{};
  const auto left = at - std::chrono::system_clock::now();
  if (left > kLongest) return Deadline::After(kLongest);
  return Deadline::At(Deadline::Clock::now() +
                      std::chrono::duration_cast<Deadline::Clock::duration>(left));
}

}  // namespace

Call CallOf(const grpc::CallbackServerContext& context, std::string_view method) {
  Call call{method, "", DeadlineOf(context.deadline()), std::chrono::steady_clock::now()};
  const auto& metadata = context.client_metadata();
  if (const auto it = metadata.find("authorization"); it != metadata.end()) {
    call.authorization.assign(it->second.data(), it->second.size());
  }
  return call;
}

grpc::Status ToStatus(const RpcError& error) {
  return {static_cast<grpc::StatusCode>(static_cast<int>(error.code)), error.message};
}

}  // namespace idres::api
