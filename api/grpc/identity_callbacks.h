// IdentityCallbacks: idres.v1.IdentityService on grpc++'s callback API. Each
// unary method only translates (api/grpc/grpc_call.h) and has the
// transport-neutral service (api/service/service.h) decide: an Upsert is
// handed to the engine with no thread waiting, as over Connect; every other
// unary method runs on the database thread pool `work`, never on a gRPC
// thread. The two streams are reactors of their own
// (api/grpc/upsert_stream.h, api/grpc/watch_changes.h). Internal to
// api/grpc/.
//
// Thread-safety: gRPC calls it from its threads at once; it keeps no state
// but the streams' registry.
#pragma once

#include <boost/asio/thread_pool.hpp>

#include "api/grpc/grpc_call.h"
#include "api/grpc/streams.h"
#include "api/idres/v1/identity.grpc.pb.h"
#include "api/service/service.h"

namespace idres::api {

// The unary methods that block for the database (all but Upsert), as
// X(name, request, response): declared and defined from this one list.
#define IDRES_GRPC_BLOCKING_METHODS(X)                                                    \
  X(BatchUpsert, v1::BatchUpsertRequest, v1::BatchUpsertResponse)                         \
  X(DeleteRecord, v1::DeleteRecordRequest, v1::DeleteRecordResponse)                      \
  X(ForgetPerson, v1::ForgetPersonRequest, v1::ForgetPersonResponse)                      \
  X(SplitPerson, v1::SplitPersonRequest, v1::SplitPersonResponse)                         \
  X(GetPersonHistory, v1::GetPersonHistoryRequest, v1::GetPersonHistoryResponse)          \
  X(NeverMatch, v1::JudgeRequest, v1::JudgeResponse)                                      \
  X(AlwaysMatch, v1::JudgeRequest, v1::JudgeResponse)                                     \
  X(ForgetReceipts, v1::ForgetReceiptsRequest, v1::ForgetReceiptsResponse)                \
  X(GetPerson, v1::GetPersonRequest, v1::GetPersonResponse)                               \
  X(Lookup, v1::LookupRequest, v1::LookupResponse)                                        \
  X(Stats, v1::StatsRequest, v1::StatsResponse)                                           \
  X(ListChanges, v1::ListChangesRequest, v1::ListChangesResponse)                         \
  X(Explain, v1::ExplainRequest, v1::ExplainResponse)                                     \
  X(ExplainPair, v1::ExplainPairRequest, v1::ExplainPairResponse)                         \
  X(ListPossibleMatches, v1::ListPossibleMatchesRequest, v1::ListPossibleMatchesResponse) \
  X(GetModel, v1::GetModelRequest, v1::GetModelResponse)                                  \
  X(GetAccess, v1::GetAccessRequest, v1::GetAccessResponse)

class IdentityCallbacks final : public v1::IdentityService::CallbackService {
 public:
  // All must outlive the callbacks.
  IdentityCallbacks(const IdentityService& service, boost::asio::thread_pool& work,
                    InFlight& in_flight, Streams& streams)
      : service_(service), work_(work), in_flight_(in_flight), streams_(streams) {}

  grpc::ServerUnaryReactor* Upsert(grpc::CallbackServerContext* context,
                                   const v1::UpsertRequest* request,
                                   v1::UpsertResponse* response) override;

#define IDRES_GRPC_DECLARE(Name, Request, Response)                                            \
  grpc::ServerUnaryReactor* Name(grpc::CallbackServerContext* context, const Request* request, \
                                 Response* response) override;
  IDRES_GRPC_BLOCKING_METHODS(IDRES_GRPC_DECLARE)
#undef IDRES_GRPC_DECLARE

  grpc::ServerBidiReactor<v1::UpsertStreamRequest, v1::UpsertStreamResponse>* UpsertStream(
      grpc::CallbackServerContext* context) override;
  grpc::ServerWriteReactor<v1::WatchChangesResponse>* WatchChanges(
      grpc::CallbackServerContext* context, const v1::WatchChangesRequest* request) override;

 private:
  // The error that refuses `call` before it runs: its token, role and
  // limits, its deadline. Sets the call's caller.
  std::optional<RpcError> Refused(Call& call) const;
  // Runs `Method` for the call on the database thread pool and answers it.
  template <auto Method, typename Request, typename Response>
  grpc::ServerUnaryReactor* Blocking(grpc::CallbackServerContext* context, std::string_view name,
                                     const Request* request, Response* response);

  const IdentityService& service_;
  boost::asio::thread_pool& work_;
  InFlight& in_flight_;
  Streams& streams_;
};

}  // namespace idres::api
