// IdentityService: each method of idres.v1.IdentityService once, for every
// transport. A transport (api/connect/, api/grpc/) turns its wire into a
// Call and a decoded request, and the service's answer back into its wire;
// everything in between is decided here: the caller's token, role and
// limits (AccessControl), the deadline, the method's own checks and limits
// (IdentityMethods), the engine call,
// the failure's status code (MapException) and the metrics by that code.
//
// Upsert comes in three steps (BeginUpsert, SubmitUpsert, FinishUpsert) so
// that no thread waits while the engine groups queued upserts
// (Engine::Submit); every other method blocks while the database works, on
// a thread the transport keeps for that.
//
// Thread-safety: every method may be called from many threads at once.
#pragma once

#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "api/idres/v1/identity.pb.h"
#include "api/service/access_control.h"
#include "api/service/backend.h"
#include "api/service/call.h"
#include "api/service/error_mapping.h"
#include "api/service/identity_methods.h"
#include "api/service/limits.h"
#include "api/service/metrics.h"
#include "api/service/status.h"

namespace idres::api {

struct ServiceOptions {
  Limits limits;
  // Who may call what; null: anyone may call anything (no token is asked).
  std::shared_ptr<const AccessControl> access;
};

// An Upsert checked and decoded, for SubmitUpsert to apply.
struct PendingUpsert {
  Call call;
  Record record;
};

class IdentityService {
 public:
  // `metrics` may be null (nothing recorded). Both must outlive the service.
  IdentityService(IdentityBackend& backend, Metrics* metrics, ServiceOptions options);

  // Admits `call` (AccessControl::Admit) and sets its caller; nullopt when
  // it may go on. permission_denied and resource_exhausted are recorded;
  // unauthenticated is not: a caller without a token adds nothing to the
  // metrics.
  std::optional<RpcError> Authorize(Call& call) const;
  // deadline_exceeded, recorded, when the call's deadline passed before it
  // started (a transport asks before it decodes the request); nullopt when
  // it may go on.
  std::optional<RpcError> Start(const Call& call) const;

  // Runs the IdentityMethods method `Method` for an authorized and started
  // `call`: the method's answer, or a failure's status code. Recorded;
  // never throws.
  template <auto Method, typename Request>
  auto Run(const Call& call, const Request& request) const {
    auto answer = Apply<Method>(call, request);
    Observe(call, CodeOf(answer));
    return answer;
  }

  // As Run, unrecorded: for a stream, which runs a method for each part of
  // it and is recorded once, when it ends.
  template <auto Method, typename Request>
  auto Apply(const Call& call, const Request& request) const
      -> decltype((std::declval<const IdentityMethods&>().*Method)(request, call)) {
    try {
      return (methods_.*Method)(request, call);
    } catch (...) {
      return MapException(std::current_exception(), call.method);
    }
  }

  // Upsert, step 1: the record to apply, or the error that refuses the call
  // (recorded) before it reaches the engine. Never throws.
  std::variant<PendingUpsert, RpcError> BeginUpsert(Call call,
                                                    const v1::UpsertRequest& request) const;
  // Step 2: hands the record to the engine; `done` gets the outcome once, on
  // a thread of the engine's, or here when it cannot be queued. Never throws.
  void SubmitUpsert(PendingUpsert& upsert, const UpsertCallback& done) const;
  // Step 3: the answer to a submitted upsert; recorded. Never throws.
  Reply<v1::UpsertResponse> FinishUpsert(const PendingUpsert& upsert, UpsertOutcome outcome) const;

  // Records `error` for a call its transport refused before the service
  // could run it (an undecodable request, a body over the limit); returns it.
  RpcError Refuse(const Call& call, RpcError error) const;
  // The code of an answer; nullopt: ok.
  template <typename Answer>
  static std::optional<Code> CodeOf(const Answer& answer) {
    if (const auto* error = std::get_if<RpcError>(&answer)) return error->code;
    return std::nullopt;
  }
  // Records a call that ended with `code` (nullopt: ok), e.g. a stream; a
  // call of no method is not.
  void Observe(const Call& call, std::optional<Code> code) const;

  // The methods, for a stream that runs them piece by piece.
  const IdentityMethods& methods() const { return methods_; }
  IdentityBackend& backend() const { return backend_; }
  const ServiceOptions& options() const { return options_; }

 private:
  IdentityBackend& backend_;
  Metrics* metrics_;
  ServiceOptions options_;
  IdentityMethods methods_;
};

}  // namespace idres::api
