#include "api/grpc/health_callbacks.h"

#include <boost/asio/post.hpp>

namespace idres::api {

grpc::ServerUnaryReactor* HealthCallbacks::Check(
    grpc::CallbackServerContext* context, const grpc::health::v1::HealthCheckRequest* request,
    grpc::health::v1::HealthCheckResponse* response) {
  const UnaryAnswer answer(*context, in_flight_);
  if (!request->service().empty() && request->service() != "idres.v1.IdentityService") {
    answer.Finish({grpc::StatusCode::NOT_FOUND, "unknown service " + request->service()});
    return answer.reactor();
  }
  boost::asio::post(work_, [this, answer, response] {
    using Status = grpc::health::v1::HealthCheckResponse;
    response->set_status(backend_.Healthy() ? Status::SERVING : Status::NOT_SERVING);
    answer.Finish(grpc::Status::OK);
  });
  return answer.reactor();
}

}  // namespace idres::api
