#include "api/service/identity_methods.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "api/service/proto_mapping.h"
#include "engine/engine.h"
#include "normalize/utf8.h"

namespace idres::api {
namespace {

RpcError Invalid(std::string message) { return {Code::kInvalidArgument, std::move(message)}; }

// The engine's whole-record refusal, with each rejected identifier's reason,
// so the caller can fix the record without a second round trip.
RpcError Refused(const UpsertResult& result) {
  std::string message = "record rejected: " + *result.error;
  for (const auto& r : result.rejected) {
    message += "; " + r.type + " \"" + ToValidUtf8(r.input) + "\": " + r.reason;
  }
  return Invalid(std::move(message));
}

// resource_exhausted when `whole` holds more than `most` of `what`.
std::optional<RpcError> OverLimit(std::string_view whole, int count, std::string_view what,
                                  std::size_t most) {
  const auto n = static_cast<std::size_t>(count);
  if (n <= most) return std::nullopt;
  return RpcError{Code::kResourceExhausted, std::string(whole) + " has " + std::to_string(n) + " " +
                                                std::string(what) + "; at most " +
                                                std::to_string(most) + " are allowed"};
}

// The engine's limits on a record are the engine's decision
// (RecordLimits); a record over them is refused for its size.
std::optional<RpcError> TooLarge(const IdentityBackend& backend, const Record& record) {
  auto why = backend.OverLimit(record);
  if (!why) return std::nullopt;
  return RpcError{Code::kResourceExhausted, "record rejected: " + *why};
}

// A request's two ids (a judgement's, ExplainPair's): invalid_argument
// unless both are positive.
template <typename PairRequest>
std::optional<RpcError> BadPair(const PairRequest& request) {
  if (request.person_a() > 0 && request.person_b() > 0) return std::nullopt;
  return Invalid("personA and personB must be positive ids");
}

template <typename PairRequest>
RpcError NoPair(const PairRequest& request) {
  return {Code::kNotFound, "no person " + std::to_string(request.person_a()) + " or " +
                               std::to_string(request.person_b())};
}

void FillError(const RpcError& error, v1::BatchUpsertResult& out) {
  out.mutable_error()->set_code(std::string(CodeName(error.code)));
  out.mutable_error()->set_message(error.message);
}

}  // namespace

std::variant<Record, RpcError> IdentityMethods::Check(const v1::Record& record) const {
  auto converted = ToRecord(record);
  if (auto* reason = std::get_if<std::string>(&converted)) return Invalid(std::move(*reason));
  if (auto e = TooLarge(backend_, std::get<Record>(converted))) return std::move(*e);
  return std::get<Record>(std::move(converted));
}

std::variant<Record, RpcError> IdentityMethods::UpsertRecord(
    const v1::UpsertRequest& request) const {
  if (!request.has_record()) return Invalid("record is required");
  auto checked = Check(request.record());
  if (auto* record = std::get_if<Record>(&checked)) record->explain = request.explain();
  return checked;
}

Reply<v1::ExplainResponse> IdentityMethods::Explain(const v1::ExplainRequest& request,
                                                    const Call& call) const {
  if (!request.has_record()) return Invalid("record is required");
  auto checked = Check(request.record());
  if (auto* error = std::get_if<RpcError>(&checked)) return std::move(*error);
  v1::ExplainResponse response;
  FillExplanation(backend_.Explain(std::get<Record>(checked), call.deadline),
                  *response.mutable_explanation());
  return response;
}

Reply<v1::ExplainPairResponse> IdentityMethods::ExplainPair(const v1::ExplainPairRequest& request,
                                                            const Call& call) const {
  if (auto bad = BadPair(request)) return std::move(*bad);
  const auto pair = backend_.ExplainPair(request.person_a(), request.person_b(), call.deadline);
  if (!pair) return NoPair(request);
  v1::ExplainPairResponse response;
  FillPair(*pair, response);
  return response;
}

Reply<v1::ListPossibleMatchesResponse> IdentityMethods::ListPossibleMatches(
    const v1::ListPossibleMatchesRequest& request, const Call& call) const {
  if (request.limit() < 0 || request.limit() > static_cast<int>(Engine::kMaxPossibleMatches)) {
    return Invalid("limit must be between 0 and " + std::to_string(Engine::kMaxPossibleMatches));
  }
  if (request.person_id() < 0) return Invalid("personId must not be negative");
  const std::size_t limit = request.limit() == 0 ? 100 : static_cast<std::size_t>(request.limit());
  PossibleMatchPage page;
  try {
    page =
        backend_.ListPossibleMatches(request.cursor(), limit, request.person_id(), call.deadline);
  } catch (const std::invalid_argument& e) {
    return Invalid(e.what());
  }
  v1::ListPossibleMatchesResponse response;
  for (const PossibleMatch& m : page.matches) FillPossibleMatch(m, *response.add_matches());
  response.set_next_cursor(page.next_cursor);
  return response;
}

Reply<v1::UpsertResponse> IdentityMethods::UpsertReply(const UpsertResult& result) {
  if (!result.ok()) return Refused(result);
  v1::UpsertResponse response;
  FillUpsertResult(result, response);
  return response;
}

Reply<v1::BatchUpsertResponse> IdentityMethods::BatchUpsert(const v1::BatchUpsertRequest& request,
                                                            const Call& call) const {
  if (auto e = OverLimit("batch", request.records_size(), "records", limits_.max_batch)) {
    return std::move(*e);
  }
  const auto n = static_cast<std::size_t>(request.records_size());
  if (request.has_receipt() && request.receipt().items_size() != request.records_size()) {
    return Invalid("receipt has " + std::to_string(request.receipt().items_size()) + " items for " +
                   std::to_string(n) + " records; it needs exactly one item per record, in order");
  }
  if (request.has_receipt()) {
    const BatchReceipt all{request.receipt().job(),
                           {request.receipt().items().begin(), request.receipt().items().end()}};
    if (const auto repeated = all.RepeatedItem()) {
      return Invalid("receipt item " + std::to_string(*repeated) +
                     " is given twice; each record needs an item of its own");
    }
  }
  v1::BatchUpsertResponse response;
  std::vector<Record> accepted;
  std::vector<int> slot_of;  // accepted[i] answers response.results(slot_of[i])
  // The items of the accepted records only: a refused record is not stored,
  // so it gets no receipt (sent again, it is refused again).
  BatchReceipt receipt{request.receipt().job(), {}};
  for (int i = 0; i < request.records_size(); ++i) {
    auto* result = response.add_results();
    auto checked = Check(request.records(i));
    if (auto* error = std::get_if<RpcError>(&checked)) {
      FillError(*error, *result);
      continue;
    }
    slot_of.push_back(i);
    accepted.push_back(std::get<Record>(std::move(checked)));
    if (request.has_receipt()) receipt.items.push_back(request.receipt().items(i));
  }
  if (accepted.empty()) return response;
  const auto results = request.has_receipt()
                           ? backend_.BatchUpsert(accepted, receipt, call.deadline)
                           : backend_.BatchUpsert(accepted, call.deadline);
  if (results.size() != accepted.size()) {
    throw std::logic_error("BatchUpsert answered " + std::to_string(results.size()) +
                           " results for " + std::to_string(accepted.size()) + " records");
  }
  for (std::size_t i = 0; i < results.size(); ++i) {
    auto& out = *response.mutable_results(slot_of[i]);
    if (results[i].ok()) {
      FillUpsertResult(results[i], out);
    } else {
      FillError(Refused(results[i]), out);
    }
  }
  return response;
}

Reply<v1::DeleteRecordResponse> IdentityMethods::DeleteRecord(
    const v1::DeleteRecordRequest& request, const Call& call) const {
  if (request.record_id().empty()) return Invalid("recordId is required");
  std::optional<DeletedRecord> deleted;
  try {
    deleted = backend_.DeleteRecord(request.source(), request.record_id(), call.deadline,
                                    call.caller.name);
  } catch (const std::invalid_argument& e) {
    return Invalid(e.what());
  }
  if (!deleted) {
    return RpcError{Code::kNotFound, "no record \"" + ToValidUtf8(request.record_id()) +
                                         "\" of source \"" + ToValidUtf8(request.source()) +
                                         "\" is stored"};
  }
  v1::DeleteRecordResponse response;
  response.set_person_id(deleted->person_id);
  response.set_person_removed(deleted->person_removed);
  for (const auto id : deleted->split_person_ids) response.add_split_person_ids(id);
  return response;
}

Reply<v1::ForgetPersonResponse> IdentityMethods::ForgetPerson(
    const v1::ForgetPersonRequest& request, const Call& call) const {
  if (request.person_id() <= 0) return Invalid("personId must be a positive id");
  const auto erased = backend_.ForgetPerson(request.person_id(), call.deadline, call.caller.name);
  if (!erased) return NoPerson(request.person_id(), call.deadline);
  v1::ForgetPersonResponse response;
  response.set_person_id(erased->person_id);
  for (const auto id : erased->erased_ids) response.add_erased_ids(id);
  return response;
}

Reply<v1::SplitPersonResponse> IdentityMethods::SplitPerson(const v1::SplitPersonRequest& request,
                                                            const Call& call) const {
  if (request.person_id() <= 0) return Invalid("personId must be a positive id");
  std::vector<std::vector<RecordRef>> groups;
  for (const auto& g : request.groups()) {
    auto& group = groups.emplace_back();
    for (const auto& r : g.records()) group.push_back({r.source(), r.record_id()});
  }
  SplitResult split;
  try {
    split = backend_.SplitPerson(request.person_id(), std::move(groups), call.deadline,
                                 call.caller.name);
  } catch (const std::invalid_argument& e) {
    return Invalid(e.what());
  }
  switch (split.status) {
    case SplitResult::Status::kNoSuchRecord:
      return RpcError{Code::kNotFound, ToValidUtf8(split.reason)};
    case SplitResult::Status::kNotThePersons:
    case SplitResult::Status::kSharedExclusive:
      return RpcError{Code::kFailedPrecondition, ToValidUtf8(split.reason)};
    case SplitResult::Status::kDone:
      break;
  }
  v1::SplitPersonResponse response;
  response.set_person_id(split.person_id);
  for (const auto id : split.part_ids) response.add_part_ids(id);
  return response;
}

Reply<v1::JudgeResponse> IdentityMethods::NeverMatch(const v1::JudgeRequest& request,
                                                     const Call& call) const {
  if (auto bad = BadPair(request)) return std::move(*bad);
  switch (backend_.NeverMatch(request.person_a(), request.person_b(), call.deadline,
                              call.caller.name)) {
    case JudgeResult::kDone:
      return v1::JudgeResponse{};
    case JudgeResult::kSamePerson:
      return RpcError{Code::kFailedPrecondition,
                      "persons " + std::to_string(request.person_a()) + " and " +
                          std::to_string(request.person_b()) +
                          " are one person; split it first (SplitPerson)"};
    case JudgeResult::kNoPerson:
      break;
  }
  return NoPair(request);
}

Reply<v1::JudgeResponse> IdentityMethods::AlwaysMatch(const v1::JudgeRequest& request,
                                                      const Call& call) const {
  if (auto bad = BadPair(request)) return std::move(*bad);
  const auto merged =
      backend_.AlwaysMatch(request.person_a(), request.person_b(), call.deadline, call.caller.name);
  if (!merged) return NoPair(request);
  v1::JudgeResponse response;
  response.set_person_id(merged->survivor);
  return response;
}

Reply<v1::GetPersonHistoryResponse> IdentityMethods::GetPersonHistory(
    const v1::GetPersonHistoryRequest& request, const Call& call) const {
  if (request.person_id() <= 0) return Invalid("personId must be a positive id");
  const auto events = backend_.GetPersonHistory(request.person_id(), call.deadline);
  if (events.empty())
    return RpcError{Code::kNotFound, "no person " + std::to_string(request.person_id())};
  v1::GetPersonHistoryResponse response;
  for (const PersonEvent& e : events) FillEvent(e, *response.add_events());
  return response;
}

RpcError IdentityMethods::NoPerson(std::int64_t id, const Deadline& deadline) const {
  std::string message = "no person " + std::to_string(id);
  if (const auto removal = backend_.Removal(id, deadline)) {
    message = removal->why == "erased"
                  ? "person " + std::to_string(id) + " was erased at " +
                        FormatRfc3339(removal->removed_at)
                  : "person " + std::to_string(id) + " was removed at " +
                        FormatRfc3339(removal->removed_at) + ": its last record was deleted";
  }
  return {Code::kNotFound, std::move(message)};
}

Reply<v1::ForgetReceiptsResponse> IdentityMethods::ForgetReceipts(
    const v1::ForgetReceiptsRequest& request, const Call& /*call*/) const {
  backend_.ForgetReceipts(request.job());
  return v1::ForgetReceiptsResponse{};
}

Reply<v1::GetPersonResponse> IdentityMethods::GetPerson(const v1::GetPersonRequest& request,
                                                        const Call& call) const {
  if (request.person_id() <= 0) return Invalid("personId must be a positive id");
  const auto person = backend_.GetPerson(request.person_id(), call.deadline);
  if (!person) return NoPerson(request.person_id(), call.deadline);
  v1::GetPersonResponse response;
  FillPerson(*person, *response.mutable_person());
  return response;
}

Reply<v1::LookupResponse> IdentityMethods::Lookup(const v1::LookupRequest& request,
                                                  const Call& call) const {
  if (!request.has_identifier()) return Invalid("identifier is required");
  const auto found = backend_.Lookup(ToRawIdentifier(request.identifier()),
                                     request.default_region(), call.deadline);
  if (const auto* rejection = std::get_if<Rejection>(&found)) {
    return Invalid(rejection->type + " \"" + ToValidUtf8(rejection->input) +
                   "\": " + rejection->reason);
  }
  const auto& persons = std::get<std::vector<Person>>(found);
  if (persons.empty()) return RpcError{Code::kNotFound, "no person holds that identifier"};
  v1::LookupResponse response;
  FillPerson(persons.front(), *response.mutable_person());
  for (const Person& p : persons) FillPerson(p, *response.add_persons());
  return response;
}

Reply<v1::StatsResponse> IdentityMethods::Stats(const v1::StatsRequest& /*request*/,
                                                const Call& /*call*/) const {
  const StoreStats stats = backend_.Stats();
  v1::StatsResponse response;
  response.set_persons(stats.persons);
  response.set_merged_away(stats.merged_away);
  response.set_identifiers(stats.identifiers);
  response.set_records(stats.records);
  response.set_merges_today(stats.merges_today);
  response.set_splits_today(stats.splits_today);
  response.set_open_pairs(stats.open_pairs);
  return response;
}

Reply<v1::GetModelResponse> IdentityMethods::GetModel(const v1::GetModelRequest& /*request*/,
                                                      const Call& /*call*/) const {
  v1::GetModelResponse response;
  FillModel(backend_.model(), Model::Defaults(), response);
  return response;
}

Reply<v1::ListChangesResponse> IdentityMethods::ListChanges(const v1::ListChangesRequest& request,
                                                            const Call& call) const {
  if (request.after_position() < 0) return Invalid("afterPosition must not be negative");
  if (request.limit() < 0) return Invalid("limit must not be negative");
  const std::size_t limit =
      request.limit() == 0 ? Engine::kMaxListChanges : static_cast<std::size_t>(request.limit());
  const std::vector<Change> changes =
      backend_.ListChanges(request.after_position(), limit, call.deadline);
  v1::ListChangesResponse response;
  for (const Change& c : changes) FillChange(c, *response.add_changes());
  response.set_next_after_position(changes.empty() ? request.after_position()
                                                   : changes.back().position);
  return response;
}

Reply<v1::GetAccessResponse> IdentityMethods::GetAccess(const v1::GetAccessRequest& /*request*/,
                                                        const Call& call) const {
  v1::GetAccessResponse response;
  response.set_token(call.caller.name);
  for (const Role role : {Role::kIngest, Role::kRead, Role::kSteward, Role::kAdmin}) {
    if ((call.caller.roles & static_cast<RoleSet>(role)) != 0) {
      response.add_roles(std::string(RoleName(role)));
    }
  }
  for (const MethodRole& entry : kMethodRoles) {
    if (Grants(call.caller.roles, entry.role)) response.add_methods(std::string(entry.method));
  }
  response.add_methods(std::string(kGetAccess));
  return response;
}

}  // namespace idres::api
