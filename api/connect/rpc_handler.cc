#include "api/connect/rpc_handler.h"

#include <chrono>
#include <future>
#include <memory>
#include <optional>

#include "api/connect/codec.h"
#include "api/connect/connect_timeout.h"
#include "api/connect/console_handler.h"

namespace idres::api {
namespace {

HttpResponse Plain(int status, std::string body) {
  return {status, "text/plain; charset=utf-8", std::move(body)};
}

using Clock = std::chrono::steady_clock;

constexpr std::string_view kUpsert = "Upsert";
// GET /metrics, in the role table (api/service/access.h) as a method.
constexpr std::string_view kMetrics = "Metrics";

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
Request RequestOf(Reply<Response> (IdentityMethods::*)(const Request&, const Call&) const);

// Decodes the message `Method` takes, has the service run it and encodes
// its answer: a plain function, for the table.
template <auto Method>
HttpResponse RunMethod(const HttpRequest& http, WireFormat format, const Call& call,
                       const IdentityService& service) {
  decltype(RequestOf(Method)) request;
  if (auto error = Decode(http.body, format, request)) {
    return ErrorResponse(service.Refuse(call, std::move(*error)));
  }
  return Respond(service.Run<Method>(call, request), format);
}

using Handler = HttpResponse (*)(const HttpRequest&, WireFormat, const Call&,
                                 const IdentityService&);

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
      {"GetModel", &RunMethod<&M::GetModel>},
      {"GetAccess", &RunMethod<&M::GetAccess>},
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

// How the Connect transport refuses a call before the service runs it:
// with a plain HTTP status (no code), or with an error.
using Refusal = std::variant<int, RpcError>;

// The call's wire format, or why the transport refuses it: the wrong HTTP
// method, content type or Connect headers, a body over the transport's
// limit, a malformed Connect-Timeout-Ms. Sets the call's deadline.
std::variant<Refusal, WireFormat> Admit(const HttpRequest& request, std::size_t max_body_bytes,
                                        Call& call) {
  if (request.method != "POST") return Refusal{405};
  const auto format = ParseContentType(request.content_type);
  if (!format) return Refusal{415};
  if (auto error = HeaderError(request)) return Refusal{std::move(*error)};
  if (request.body.size() > max_body_bytes) {
    return Refusal{RpcError{Code::kResourceExhausted, "request body over the limit"}};
  }
  auto deadline = DeadlineOf(request);
  if (auto* error = std::get_if<RpcError>(&deadline)) return Refusal{std::move(*error)};
  call.deadline = std::get<Deadline>(deadline);
  return *format;
}

HttpResponse PlainRefusal(int status) {
  if (status == 405) return Plain(405, "Connect unary calls use POST\n");
  return Plain(415, "Content-Type must be application/json or application/proto\n");
}

}  // namespace

RpcHandler::RpcHandler(const IdentityService& service, Metrics* metrics, HandlerOptions options)
    : service_(service), metrics_(metrics), options_(options) {}

HttpResponse RpcHandler::Handle(const HttpRequest& request) const {
  if (auto begun = Begin(request)) return Wait(std::move(*begun));
  const std::string_view path = PathOf(request);
  if (path == "/healthz") {
    if (request.method != "GET") return Plain(405, "use GET\n");
    return Health();
  }
  // The console's files hold no data; the calls its page makes carry the token.
  if (auto console = ConsoleResponse(request)) return std::move(*console);
  const auto method = MethodOf(path);
  const bool metrics = path == "/metrics" && metrics_ != nullptr;
  // A path that names no method needs a known token, and then answers 404.
  Call call{metrics ? kMetrics : method && HandlerOf(*method) != nullptr ? *method : "",
            request.authorization,
            {},
            Clock::now()};
  if (auto refused = service_.Authorize(call)) return ErrorResponse(*refused);
  if (metrics) {
    if (request.method != "GET") return Plain(405, "use GET\n");
    return {200, "text/plain; version=0.0.4; charset=utf-8",
            metrics_->Render(service_.backend().ConnectionsInUse(), options_.pool_size)};
  }
  if (method) return Dispatch(std::move(call), request);
  return Plain(404, "not found\n");
}

HttpResponse RpcHandler::Health() const {
  if (service_.backend().Healthy()) {
    return {200, "application/json", "{\"status\":\"ok\",\"database\":\"up\"}\n"};
  }
  return {503, "application/json", "{\"status\":\"unavailable\",\"database\":\"down\"}\n"};
}

std::variant<HttpResponse, WireFormat> RpcHandler::Open(const HttpRequest& request,
                                                        Call& call) const {
  auto admitted = Admit(request, service_.options().limits.max_body_bytes, call);
  if (auto* refused = std::get_if<Refusal>(&admitted)) {
    if (auto* error = std::get_if<RpcError>(refused)) {
      return ErrorResponse(service_.Refuse(call, std::move(*error)));
    }
    ObserveHttp(call, std::get<int>(*refused));
    return PlainRefusal(std::get<int>(*refused));
  }
  if (auto late = service_.Start(call)) return ErrorResponse(*late);
  return std::get<WireFormat>(admitted);
}

HttpResponse RpcHandler::Dispatch(Call call, const HttpRequest& request) const {
  const Handler handler = HandlerOf(call.method);
  if (handler == nullptr) return Plain(404, "no such method\n");
  auto opened = Open(request, call);
  if (auto* refused = std::get_if<HttpResponse>(&opened)) return std::move(*refused);
  return handler(request, std::get<WireFormat>(opened), call, service_);
}

std::optional<RpcHandler::Begun> RpcHandler::Begin(const HttpRequest& request) const {
  if (MethodOf(PathOf(request)) != kUpsert) return std::nullopt;
  Call call{kUpsert, request.authorization, {}, Clock::now()};
  if (auto refused = service_.Authorize(call)) return ErrorResponse(*refused);
  return BeginUpsert(request, std::move(call));
}

RpcHandler::Begun RpcHandler::BeginUpsert(const HttpRequest& request, Call call) const {
  auto opened = Open(request, call);
  if (auto* refused = std::get_if<HttpResponse>(&opened)) return std::move(*refused);
  const WireFormat format = std::get<WireFormat>(opened);
  v1::UpsertRequest message;
  if (auto error = Decode(request.body, format, message)) {
    return ErrorResponse(service_.Refuse(call, std::move(*error)));
  }
  auto begun = service_.BeginUpsert(std::move(call), message);
  if (auto* error = std::get_if<RpcError>(&begun)) return ErrorResponse(*error);
  return ConnectUpsert{std::get<PendingUpsert>(std::move(begun)), format};
}

void RpcHandler::Submit(ConnectUpsert& upsert, const UpsertCallback& done) const {
  service_.SubmitUpsert(upsert.upsert, done);
}

HttpResponse RpcHandler::Wait(Begun begun) const {
  if (auto* refused = std::get_if<HttpResponse>(&begun)) return std::move(*refused);
  auto& upsert = std::get<ConnectUpsert>(begun);
  // Shared with the callback, which may still be returning from set_value
  // when this thread has its answer.
  auto answer = std::make_shared<std::promise<UpsertOutcome>>();
  auto outcome = answer->get_future();
  Submit(upsert, [answer](UpsertOutcome o) { answer->set_value(std::move(o)); });
  return Finish(upsert, outcome.get());
}

HttpResponse RpcHandler::Finish(const ConnectUpsert& upsert, UpsertOutcome outcome) const {
  return Respond(service_.FinishUpsert(upsert.upsert, std::move(outcome)), upsert.format);
}

void RpcHandler::ObserveHttp(const Call& call, int status) const {
  if (metrics_ == nullptr) return;
  const std::chrono::duration<double> elapsed = Clock::now() - call.start;
  metrics_->OnRequest(call.method, "http_" + std::to_string(status), elapsed.count());
}

}  // namespace idres::api
