// What the gRPC transport translates, and nothing else: a call's metadata
// and deadline into the service's Call, the service's status into a
// grpc::Status, and the answer of every unary call of ours, counted so that
// a stop knows what is still running. Internal to api/grpc/.
//
// Thread-safety: CallOf and ToStatus are pure; InFlight is atomic.
#pragma once

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <string_view>

#include "api/service/service.h"

namespace idres::api {

// The calls (unary and streams) that have begun and not ended.
class InFlight {
 public:
  void Begin() { count_.fetch_add(1); }
  void End() { count_.fetch_sub(1); }
  int count() const { return count_.load(); }

 private:
  std::atomic<int> count_{0};
};

// The service's Call for `method`: the "authorization" metadata and the
// deadline the client set (grpc-timeout), as the engine's Deadline.
Call CallOf(const grpc::CallbackServerContext& context, std::string_view method);

// `error` as a gRPC status: the same code (gRPC's numbers are the service's)
// and message.
grpc::Status ToStatus(const RpcError& error);

// The status of a method's answer.
template <typename Response>
grpc::Status StatusOf(const Reply<Response>& reply) {
  if (const auto* error = std::get_if<RpcError>(&reply)) return ToStatus(*error);
  return grpc::Status::OK;
}

// A unary call's answer: grpc's own reactor for the call
// (CallbackServerContext::DefaultReactor, whose reactions run inline instead
// of on gRPC's executor threads, and which is not allocated), counted in
// `in_flight` from the handler's start until Finish. A copy answers the same
// call; exactly one Finish per call.
class UnaryAnswer {
 public:
  UnaryAnswer(grpc::CallbackServerContext& context, InFlight& in_flight)
      : reactor_(context.DefaultReactor()), in_flight_(&in_flight) {
    in_flight_->Begin();
  }

  void Finish(const grpc::Status& status) const {
    reactor_->Finish(status);
    in_flight_->End();
  }

  // What the handler returns to gRPC.
  grpc::ServerUnaryReactor* reactor() const { return reactor_; }

 private:
  grpc::ServerUnaryReactor* reactor_;
  InFlight* in_flight_;
};

}  // namespace idres::api
