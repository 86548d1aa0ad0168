#include "api/service/service.h"


namespace idres::api {

IdentityService::IdentityService(IdentityBackend& backend, Metrics* metrics, ServiceOptions options)
    : backend_(backend),
      metrics_(metrics),
      options_(std::move(options)),
      methods_(backend, options_.limits) {}

std::optional<RpcError> IdentityService::Authorize(Call& call) const {
  if (!options_.access) return std::nullopt;  // open: the default Caller, anonymous
  auto admitted = options_.access->Admit(call.authorization, call.method);
  if (auto* caller = std::get_if<Caller>(&admitted)) {
    call.caller = std::move(*caller);
    return std::nullopt;
  }
  auto& error = std::get<RpcError>(admitted);
  if (error.code == Code::kUnauthenticated) return std::move(error);
  return Refuse(call, std::move(error));
}

std::optional<RpcError> IdentityService::Start(const Call& call) const {
  if (!call.deadline.Passed()) return std::nullopt;
  return Refuse(call, {Code::kDeadlineExceeded, "the deadline passed before the call started"});
}

std::variant<PendingUpsert, RpcError> IdentityService::BeginUpsert(
    Call call, const v1::UpsertRequest& request) const {
  std::variant<Record, RpcError> checked = RpcError{Code::kInternal, ""};
  try {
    checked = methods_.UpsertRecord(request);
  } catch (...) {
    checked = MapException(std::current_exception(), call.method);
  }
  if (auto* error = std::get_if<RpcError>(&checked)) return Refuse(call, std::move(*error));
  return PendingUpsert{std::move(call), std::get<Record>(std::move(checked))};
}

void IdentityService::SubmitUpsert(PendingUpsert& upsert, const UpsertCallback& done) const {
  try {
    backend_.Submit(std::move(upsert.record), upsert.call.deadline, done);
  } catch (...) {  // not queued: the call's answer is the error
    done({{}, std::current_exception()});
  }
}

Reply<v1::UpsertResponse> IdentityService::FinishUpsert(const PendingUpsert& upsert,
                                                        UpsertOutcome outcome) const {
  Reply<v1::UpsertResponse> reply = RpcError{Code::kInternal, ""};
  try {
    if (outcome.error) std::rethrow_exception(outcome.error);
    reply = IdentityMethods::UpsertReply(outcome.result);
  } catch (...) {
    reply = MapException(std::current_exception(), upsert.call.method);
  }
  Observe(upsert.call, CodeOf(reply));
  return reply;
}

RpcError IdentityService::Refuse(const Call& call, RpcError error) const {
  Observe(call, error.code);
  return error;
}

void IdentityService::Observe(const Call& call, std::optional<Code> code) const {
  if (metrics_ == nullptr || call.method.empty()) return;
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - call.start;
  metrics_->OnRequest(call.method, code ? CodeName(*code) : "ok", elapsed.count());
}

}  // namespace idres::api
