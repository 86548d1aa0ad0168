// IdentityMethods: the IdentityService methods on decoded messages, each
// within the call's deadline (Stats, ForgetReceipts and GetModel are short
// and ignore it). Each either answers or returns the error the client should see for
// bad input or a limit; failures of the backend (engine/errors.h) are
// thrown on, for the service to map in one place
// (api/service/error_mapping.h). Internal to api/.
//
// Thread-safety: const methods, safe from many threads as the backend is.
#pragma once

#include <variant>

#include "api/idres/v1/identity.pb.h"
#include "api/service/backend.h"
#include "api/service/call.h"
#include "api/service/limits.h"
#include "api/service/status.h"

namespace idres::api {

template <typename Response>
using Reply = std::variant<Response, RpcError>;

class IdentityMethods {
 public:
  IdentityMethods(IdentityBackend& backend, Limits limits) : backend_(backend), limits_(limits) {}

  // Upsert in two halves, for a backend that answers later
  // (IdentityBackend::Submit): the record to apply or the error that
  // refuses the request, then the reply to what applying it came to.
  std::variant<Record, RpcError> UpsertRecord(const v1::UpsertRequest& request) const;
  static Reply<v1::UpsertResponse> UpsertReply(const UpsertResult& result);
  Reply<v1::BatchUpsertResponse> BatchUpsert(const v1::BatchUpsertRequest& request,
                                             const Call& call) const;
  Reply<v1::DeleteRecordResponse> DeleteRecord(const v1::DeleteRecordRequest& request,
                                               const Call& call) const;
  Reply<v1::ForgetPersonResponse> ForgetPerson(const v1::ForgetPersonRequest& request,
                                               const Call& call) const;
  Reply<v1::SplitPersonResponse> SplitPerson(const v1::SplitPersonRequest& request,
                                             const Call& call) const;
  Reply<v1::JudgeResponse> NeverMatch(const v1::JudgeRequest& request,
                                      const Call& call) const;
  Reply<v1::JudgeResponse> AlwaysMatch(const v1::JudgeRequest& request,
                                       const Call& call) const;
  Reply<v1::GetPersonHistoryResponse> GetPersonHistory(const v1::GetPersonHistoryRequest& request,
                                                       const Call& call) const;
  Reply<v1::ForgetReceiptsResponse> ForgetReceipts(const v1::ForgetReceiptsRequest& request,
                                                   const Call& call) const;
  Reply<v1::GetPersonResponse> GetPerson(const v1::GetPersonRequest& request,
                                         const Call& call) const;
  Reply<v1::LookupResponse> Lookup(const v1::LookupRequest& request,
                                   const Call& call) const;
  Reply<v1::StatsResponse> Stats(const v1::StatsRequest& request, const Call& call) const;
  Reply<v1::ListChangesResponse> ListChanges(const v1::ListChangesRequest& request,
                                             const Call& call) const;
  Reply<v1::ExplainResponse> Explain(const v1::ExplainRequest& request,
                                     const Call& call) const;
  Reply<v1::ExplainPairResponse> ExplainPair(const v1::ExplainPairRequest& request,
                                             const Call& call) const;
  Reply<v1::ListPossibleMatchesResponse> ListPossibleMatches(
      const v1::ListPossibleMatchesRequest& request, const Call& call) const;
  // The caller's token, roles and the methods they grant (kMethodRoles).
  Reply<v1::GetAccessResponse> GetAccess(const v1::GetAccessRequest& request,
                                         const Call& call) const;
  Reply<v1::GetModelResponse> GetModel(const v1::GetModelRequest& request,
                                       const Call& call) const;

 private:
  // not_found for `id`, saying why when it was removed (erased, or its last
  // record deleted).
  RpcError NoPerson(std::int64_t id, const Deadline& deadline) const;
  // The engine's record for `record`, or the error that refuses it whole.
  std::variant<Record, RpcError> Check(const v1::Record& record) const;

  IdentityBackend& backend_;
  Limits limits_;
};

}  // namespace idres::api
