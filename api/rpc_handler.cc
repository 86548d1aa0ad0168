#include "api/rpc_handler.h"

#include <chrono>
#include <future>
#include <memory>
#include <optional>

#include "api/auth.h"
#include "api/codec.h"
#include "api/connect_timeout.h"
#include "api/console_handler.h"
#include "api/error_mapping.h"

namespace idres::api {
namespace {

HttpResponse Plain(int status, std::string body) {
  return {status, "text/plain; charset=utf-8", std::move(body)};
}

using Clock = std::chrono::steady_clock;

constexpr std::string_view kUpsert = "Upsert";

std::string_view PathOf(const HttpRequest& request) {
  return std::string_view(request.target).substr(0, request.target.find('?'));
}

// The service method `path` calls; nullopt for a path outside the service.
std::optional<std::string_view> MethodOf(std::string_view path) {
  if (path.substr(0, RpcHandler::kServicePrefix.size()) != RpcHandler::kServicePrefix) {
    return std::nullopt;
  }
  return path.substr(RpcHandler::kServicePrefix.size());
}

// The response carrying `reply`.
template <typename Response>
HttpResponse Respond(const Reply<Response>& reply, WireFormat format) {
  if (const auto* error = std::get_if<RpcError>(&reply)) return ErrorResponse(*error);
  return {200, std::string(ContentTypeOf(format)), Encode(std::get<Response>(reply), format)};
}

// The request message an IdentityMethods method takes (never called).
template <typename Request, typename Response>
Request RequestOf(Reply<Response> (IdentityMethods::*)(const Request&, const Deadline&) const);

// Decodes the message `Method` takes, runs it and encodes its answer: a
// plain function, for the table.
template <auto Method>
HttpResponse RunMethod(const HttpRequest& http, WireFormat format, const Deadline& deadline,
                       const IdentityMethods& methods) {
  decltype(RequestOf(Method)) request;
  if (auto error = Decode(http.body, format, request)) return ErrorResponse(*error);
  return Respond((methods.*Method)(request, deadline), format);
}

using Handler = HttpResponse (*)(const HttpRequest&, WireFormat, const Deadline&,
                                 const IdentityMethods&);

// The service's method `method`, when it blocks for the database (all but
// Upsert, which takes Begin, Submit and Finish); null when it has none of
// that name.
Handler HandlerOf(std::string_view method) {
  using M = IdentityMethods;
  static const std::pair<std::string_view, Handler> kMethods[] = {
      {"BatchUpsert", &RunMethod<&M::BatchUpsert>},
      {"DeleteRecord", &RunMethod<&M::DeleteRecord>},
      {"ForgetPerson", &RunMethod<&M::ForgetPerson>},
      {"SplitPerson", &RunMethod<&M::SplitPerson>},
      {"GetPersonHistory", &RunMethod<&M::GetPersonHistory>},
      {"NeverMatch", &RunMethod<&M::NeverMatch>},
      {"AlwaysMatch", &RunMethod<&M::AlwaysMatch>},
      {"ForgetReceipts", &RunMethod<&M::ForgetReceipts>},
      {"GetPerson", &RunMethod<&M::GetPerson>},
      {"Lookup", &RunMethod<&M::Lookup>},
      {"Stats", &RunMethod<&M::Stats>},
      {"ListChanges", &RunMethod<&M::ListChanges>},
      {"Explain", &RunMethod<&M::Explain>},
      {"ExplainPair", &RunMethod<&M::ExplainPair>},
      {"ListPossibleMatches", &RunMethod<&M::ListPossibleMatches>},
  };
  for (const auto& [name, handler] : kMethods) {
    if (name == method) return handler;
  }
  return nullptr;
}

// What the Connect headers of a unary call may not be: a version other than
// 1, a compression this server does not do.
std::optional<RpcError> HeaderError(const HttpRequest& request) {
  if (request.connect_protocol_version && *request.connect_protocol_version != "1") {
    return RpcError{Code::kInvalidArgument, "Connect-Protocol-Version must be 1, got " +
                                                JsonQuote(*request.connect_protocol_version)};
  }
  if (!IsIdentityEncoding(request.content_encoding)) {
    return RpcError{Code::kUnimplemented,
                    "Content-Encoding " + request.content_encoding + " is not supported"};
  }
  return std::nullopt;
}

HttpResponse Unauthenticated() {
  return ErrorResponse({Code::kUnauthenticated, "missing or wrong bearer token"});
}

// A call of one of the service's methods, past every check that needs no
// decoding.
struct Admitted {
  WireFormat format;
  Deadline deadline;
};

// The call, or the response that refuses it: the wrong HTTP method,
// content type or Connect headers, a body over the limit, a bad or passed
// deadline.
std::variant<HttpResponse, Admitted> Admit(const HttpRequest& request, const Limits& limits) {
  if (request.method != "POST") return Plain(405, "Connect unary calls use POST\n");
  const auto format = ParseContentType(request.content_type);
  if (!format) {
    return Plain(415, "Content-Type must be application/json or application/proto\n");
  }
  if (auto error = HeaderError(request)) return ErrorResponse(*error);
  if (request.body.size() > limits.max_body_bytes) {
    return ErrorResponse({Code::kResourceExhausted, "request body over the limit"});
  }
  const auto deadline = DeadlineOf(request);
  if (const auto* error = std::get_if<RpcError>(&deadline)) return ErrorResponse(*error);
  if (std::get<Deadline>(deadline).Passed()) {
    return ErrorResponse({Code::kDeadlineExceeded, "the deadline passed before the call started"});
  }
  return Admitted{*format, std::get<Deadline>(deadline)};
}

// The Connect code name of a response the handler produced, for metrics.
std::string CodeOf(const HttpResponse& response) {
  if (response.status == 200) return "ok";
  // Error bodies are ours: {"code":"<name>",...}.
  constexpr std::string_view kPrefix = "{\"code\":\"";
  const std::string_view body = response.body;
  if (body.substr(0, kPrefix.size()) == kPrefix) {
    const auto end = body.find('"', kPrefix.size());
    if (end != std::string_view::npos) {
      return std::string(body.substr(kPrefix.size(), end - kPrefix.size()));
    }
  }
  return "http_" + std::to_string(response.status);
}

}  // namespace

RpcHandler::RpcHandler(IdentityBackend& backend, Metrics* metrics, HandlerOptions options)
    : backend_(backend),
      metrics_(metrics),
      options_(std::move(options)),
      methods_(backend, options_.limits) {}

HttpResponse RpcHandler::Handle(const HttpRequest& request) const {
  if (auto begun = Begin(request)) return Wait(std::move(*begun));
  const std::string_view path = PathOf(request);
  if (path == "/healthz") {
    if (request.method != "GET") return Plain(405, "use GET\n");
    return Health();
  }
  // The console's files hold no data; the calls its page makes carry the token.
  if (auto console = ConsoleResponse(request)) return std::move(*console);
  if (!Authorized(request)) return Unauthenticated();
  if (path == "/metrics" && metrics_ != nullptr) {
    if (request.method != "GET") return Plain(405, "use GET\n");
    return {200, "text/plain; version=0.0.4; charset=utf-8",
            metrics_->Render(backend_.ConnectionsInUse(), options_.pool_size)};
  }
  if (const auto method = MethodOf(path)) return Call(*method, request);
  return Plain(404, "not found\n");
}

HttpResponse RpcHandler::Health() const {
  if (backend_.Healthy()) {
    return {200, "application/json", "{\"status\":\"ok\",\"database\":\"up\"}\n"};
  }
  return {503, "application/json", "{\"status\":\"unavailable\",\"database\":\"down\"}\n"};
}

HttpResponse RpcHandler::Call(std::string_view method, const HttpRequest& request) const {
  const auto start = Clock::now();
  HttpResponse response = Dispatch(method, request);
  // Calls of a method the service has, whatever their code (not_found too).
  if (HandlerOf(method) != nullptr) Observe(method, start, response);
  return response;
}

HttpResponse RpcHandler::Dispatch(std::string_view method, const HttpRequest& request) const {
  const Handler handler = HandlerOf(method);
  if (handler == nullptr) return Plain(404, "no such method\n");
  auto admitted = Admit(request, options_.limits);
  if (auto* refused = std::get_if<HttpResponse>(&admitted)) return std::move(*refused);
  const Admitted& call = std::get<Admitted>(admitted);
  try {
    return handler(request, call.format, call.deadline, methods_);
  } catch (...) {
    return ErrorResponse(MapException(std::current_exception(), method));
  }
}

std::optional<RpcHandler::Begun> RpcHandler::Begin(const HttpRequest& request) const {
  if (MethodOf(PathOf(request)) != kUpsert) return std::nullopt;
  if (!Authorized(request)) return Unauthenticated();
  const auto start = Clock::now();
  Begun begun = BeginUpsert(request, start);
  if (const auto* refused = std::get_if<HttpResponse>(&begun)) Observe(kUpsert, start, *refused);
  return begun;
}

RpcHandler::Begun RpcHandler::BeginUpsert(const HttpRequest& request,
                                          Clock::time_point start) const {
  try {
    auto admitted = Admit(request, options_.limits);
    if (auto* refused = std::get_if<HttpResponse>(&admitted)) return std::move(*refused);
    const Admitted& call = std::get<Admitted>(admitted);
    v1::UpsertRequest message;
    if (auto error = Decode(request.body, call.format, message)) return ErrorResponse(*error);
    auto checked = methods_.UpsertRecord(message);
    if (const auto* error = std::get_if<RpcError>(&checked)) return ErrorResponse(*error);
    return PendingUpsert{std::get<Record>(std::move(checked)), call.deadline, call.format, start};
  } catch (...) {
    return ErrorResponse(MapException(std::current_exception(), kUpsert));
  }
}

void RpcHandler::Submit(PendingUpsert& upsert, const UpsertCallback& done) const {
  try {
    backend_.Submit(std::move(upsert.record), upsert.deadline, done);
  } catch (...) {  // not queued: the call's answer is the error
    done({{}, std::current_exception()});
  }
}

HttpResponse RpcHandler::Wait(Begun begun) const {
  if (auto* refused = std::get_if<HttpResponse>(&begun)) return std::move(*refused);
  auto& upsert = std::get<PendingUpsert>(begun);
  // Shared with the callback, which may still be returning from set_value
  // when this thread has its answer.
  auto answer = std::make_shared<std::promise<UpsertOutcome>>();
  auto outcome = answer->get_future();
  Submit(upsert, [answer](UpsertOutcome o) { answer->set_value(std::move(o)); });
  return Finish(upsert, outcome.get());
}

HttpResponse RpcHandler::Finish(const PendingUpsert& upsert, UpsertOutcome outcome) const {
  HttpResponse response;
  try {
    if (outcome.error) std::rethrow_exception(outcome.error);
    response = Respond(IdentityMethods::UpsertReply(outcome.result), upsert.format);
  } catch (...) {
    response = ErrorResponse(MapException(std::current_exception(), kUpsert));
  }
  Observe(kUpsert, upsert.start, response);
  return response;
}

bool RpcHandler::Authorized(const HttpRequest& request) const {
  return options_.auth_token.empty() || BearerMatches(request.authorization, options_.auth_token);
}

void RpcHandler::Observe(std::string_view method, Clock::time_point start,
                         const HttpResponse& response) const {
  if (metrics_ == nullptr) return;
  const std::chrono::duration<double> elapsed = Clock::now() - start;
  metrics_->OnRequest(method, CodeOf(response), elapsed.count());
}

}  // namespace idres::api
