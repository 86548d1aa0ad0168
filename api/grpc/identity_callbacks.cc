#include "api/grpc/identity_callbacks.h"

#include <boost/asio/post.hpp>

#include <memory>

#include "api/grpc/upsert_stream.h"
#include "api/grpc/watch_changes.h"

namespace idres::api {
namespace {

// Answers the call with `reply`, its response moved into `response`.
template <typename Response>
void Answer(const UnaryAnswer& answer, Reply<Response> reply, Response* response) {
  if (auto* ok = std::get_if<Response>(&reply)) *response = std::move(*ok);
  answer.Finish(StatusOf(reply));
}

}  // namespace

std::optional<RpcError> IdentityCallbacks::Refused(Call& call) const {
  if (auto refused = service_.Authorize(call)) return refused;
  return service_.Start(call);
}

template <auto Method, typename Request, typename Response>
grpc::ServerUnaryReactor* IdentityCallbacks::Blocking(grpc::CallbackServerContext* context,
                                                      std::string_view name, const Request* request,
                                                      Response* response) {
  const UnaryAnswer answer(*context, in_flight_);
  Call call = CallOf(*context, name);
  if (auto refused = Refused(call)) {
    answer.Finish(ToStatus(*refused));
    return answer.reactor();
  }
  // gRPC keeps `request` and `response` until the call is finished.
  boost::asio::post(work_, [this, call = std::move(call), request, response, answer] {
    Answer(answer, service_.Run<Method>(call, *request), response);
  });
  return answer.reactor();
}

grpc::ServerUnaryReactor* IdentityCallbacks::Upsert(grpc::CallbackServerContext* context,
                                                    const v1::UpsertRequest* request,
                                                    v1::UpsertResponse* response) {
  const UnaryAnswer answer(*context, in_flight_);
  Call call = CallOf(*context, "Upsert");
  if (auto refused = Refused(call)) {
    answer.Finish(ToStatus(*refused));
    return answer.reactor();
  }
  auto begun = service_.BeginUpsert(std::move(call), *request);
  if (const auto* error = std::get_if<RpcError>(&begun)) {
    answer.Finish(ToStatus(*error));
    return answer.reactor();
  }
  auto upsert = std::make_shared<PendingUpsert>(std::get<PendingUpsert>(std::move(begun)));
  // The outcome comes on the engine's thread, which hands out every outcome
  // of a shared transaction in turn: the answer is made and written on the
  // pool, as Connect's sessions write theirs on their own strands, so no
  // call waits for the others' writes and the engine goes on at once.
  // noexcept: a post that cannot allocate would leave the call unanswered
  // for ever; ending the process is the honest failure.
  service_.SubmitUpsert(*upsert, [this, upsert, answer, response](UpsertOutcome outcome) noexcept {
    boost::asio::post(
        work_, [this, upsert, answer, response, outcome = std::move(outcome)]() mutable {
          Answer(answer, service_.FinishUpsert(*upsert, std::move(outcome)), response);
        });
  });
  return answer.reactor();
}

#define IDRES_GRPC_DEFINE(Name, Request, Response)                                                \
  grpc::ServerUnaryReactor* IdentityCallbacks::Name(grpc::CallbackServerContext* context,         \
                                                    const Request* request, Response* response) { \
    return Blocking<&IdentityMethods::Name>(context, #Name, request, response);                   \
  }
IDRES_GRPC_BLOCKING_METHODS(IDRES_GRPC_DEFINE)
#undef IDRES_GRPC_DEFINE

grpc::ServerBidiReactor<v1::UpsertStreamRequest, v1::UpsertStreamResponse>*
IdentityCallbacks::UpsertStream(grpc::CallbackServerContext* context) {
  return UpsertStreamCall::Start(*context, service_, work_, in_flight_, streams_);
}

grpc::ServerWriteReactor<v1::WatchChangesResponse>* IdentityCallbacks::WatchChanges(
    grpc::CallbackServerContext* context, const v1::WatchChangesRequest* request) {
  return WatchChangesCall::Start(*context, *request, service_, work_, in_flight_, streams_);
}

}  // namespace idres::api
