// HealthCallbacks: grpc.health.v1.Health's Check, for Kubernetes' gRPC
// probes and grpc_health_probe: SERVING while the database answers a
// trivial query (as GET /healthz), NOT_SERVING while it does not. The
// service "" (the server) and "idres.v1.IdentityService" are known; any
// other is NOT_FOUND, as the protocol says. No token is needed (a probe
// carries none, and the answer holds no data). Watch is not served
// (UNIMPLEMENTED). Internal to api/grpc/.
//
// Thread-safety: the check runs on the database thread pool.
#pragma once

#include <boost/asio/thread_pool.hpp>

#include "api/grpc/grpc_call.h"
#include "api/idres/health/v1/health.grpc.pb.h"
#include "api/service/backend.h"

namespace idres::api {

class HealthCallbacks final : public grpc::health::v1::Health::CallbackService {
 public:
  HealthCallbacks(IdentityBackend& backend, boost::asio::thread_pool& work, InFlight& in_flight)
      : backend_(backend), work_(work), in_flight_(in_flight) {}

  grpc::ServerUnaryReactor* Check(grpc::CallbackServerContext* context,
                                  const grpc::health::v1::HealthCheckRequest* request,
                                  grpc::health::v1::HealthCheckResponse* response) override;

 private:
  IdentityBackend& backend_;
  boost::asio::thread_pool& work_;
  InFlight& in_flight_;
};

}  // namespace idres::api
