// RpcHandler's one Upsert path, driven as the server's session drives it
// (Begin and Finish on the network thread, the backend answering on a
// thread of its own in between), must answer every request, whatever the
// size of its body, exactly as Handle() does: the same status, body and
// metrics, and the same record and deadline reaching the backend. And an
// Upsert is refused before it is decoded exactly as the other methods are.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <future>
#include <sstream>
#include <thread>

#include "api/connect/codec.h"
#include "api/connect/rpc_handler.h"
#include "engine/errors.h"
#include "tests/api/fake_backend.h"

namespace idres::api {
namespace {

using idres::testing::FakeBackend;

struct Answer {
  HttpResponse response;
  std::string counts;  // the idres_rpc_requests_total lines of /metrics
  std::vector<Record> upserted;
  Deadline asked_deadline;
};

// How a fresh handler over a fresh backend answers `request`, through
// Handle() or through Begin(), Submit() and Finish() as the session calls
// them. `setup` prepares the backend.
template <typename Setup>
Answer Ask(const HttpRequest& request, bool two_step, const std::string& auth_token, Setup setup) {
  FakeBackend backend;
  setup(backend);
  Metrics metrics;
  const IdentityService service(backend, &metrics, {{}, testing::AdminOnly(auth_token)});
  const RpcHandler handler(service, &metrics);
  Answer out;
  if (!two_step) {
    out.response = handler.Handle(request);
  } else {
    auto begun = handler.Begin(request);
    REQUIRE(begun.has_value());
    if (auto* refused = std::get_if<HttpResponse>(&*begun)) {
      out.response = std::move(*refused);
    } else {
      auto& upsert = std::get<ConnectUpsert>(*begun);
      std::promise<std::pair<std::thread::id, UpsertOutcome>> answer;
      handler.Submit(upsert, [&answer](UpsertOutcome outcome) {
        answer.set_value({std::this_thread::get_id(), std::move(outcome)});
      });
      auto [thread, outcome] = answer.get_future().get();
      CHECK(thread != std::this_thread::get_id());  // Begin's thread went on
      out.response = handler.Finish(upsert, std::move(outcome));
    }
  }
  std::istringstream page(metrics.Render(0, 0));
  for (std::string line; std::getline(page, line);) {
    if (line.rfind("idres_rpc_requests_total{", 0) == 0) out.counts += line + "\n";
  }
  out.upserted = backend.upserted;
  out.asked_deadline = backend.asked_deadline;
  return out;
}

HttpRequest Upsert(std::string body) {
  HttpRequest r;
  r.method = "POST";
  r.target = std::string(RpcHandler::kServicePrefix) + "Upsert";
  r.content_type = "application/json";
  r.body = std::move(body);
  return r;
}

const char* const kRecord = R"({"record":{"identifiers":[{"type":"email","value":"a@b.c"}]}})";

// Upserts refused before their body is decoded, by the checks every method
// shares.
std::vector<std::pair<const char*, HttpRequest>> RefusedBeforeDecoding() {
  using Change = void (*)(HttpRequest&);
  static const std::pair<const char*, Change> kChanges[] = {
      {"deadline passed", [](HttpRequest& r) { r.connect_timeout_ms = "0"; }},
      {"bad deadline", [](HttpRequest& r) { r.connect_timeout_ms = "soon"; }},
      {"GET", [](HttpRequest& r) { r.method = "GET"; }},
      {"wrong media type", [](HttpRequest& r) { r.content_type = "text/plain"; }},
      {"protocol version 2", [](HttpRequest& r) { r.connect_protocol_version = "2"; }},
      {"compressed", [](HttpRequest& r) { r.content_encoding = "gzip"; }},
      {"a body over the limit",
       [](HttpRequest& r) { r.body = std::string(Limits{}.max_body_bytes, ' ') + kRecord; }},
  };
  std::vector<std::pair<const char*, HttpRequest>> cases;
  for (const auto& [name, change] : kChanges) {
    HttpRequest r = Upsert(kRecord);
    change(r);
    cases.push_back({name, r});
  }
  return cases;
}

TEST_CASE("Begin, Submit and Finish answer an Upsert exactly as Handle does", "[api]") {
  struct Case {
    const char* name;
    HttpRequest request;
    std::string token = "";
    std::function<void(FakeBackend&)> setup = [](FakeBackend&) {};
  };
  std::vector<Case> cases;
  cases.push_back({"created", Upsert(kRecord), "", [](FakeBackend& b) {
                     b.upsert_result.person_id = 42;
                     b.upsert_result.outcome = Outcome::kCreated;
                   }});
  {
    v1::UpsertRequest message;
    auto* id = message.mutable_record()->add_identifiers();
    id->set_type("email");
    id->set_value("a@b.c");
    HttpRequest proto = Upsert(Encode(message, WireFormat::kProto));
    proto.content_type = "application/proto";
    cases.push_back({"binary proto", proto});
  }
  cases.push_back({"refused by the engine", Upsert(kRecord), "", [](FakeBackend& b) {
                     b.upsert_result.error = "no valid identifier";
                     b.upsert_result.rejected = {{"phone", "abc", "not a possible phone number"}};
                   }});
  cases.push_back({"malformed JSON", Upsert("{")});
  cases.push_back({"no record", Upsert("{}")});
  cases.push_back({"unknown field", Upsert(R"({"record":{},"extra":1})")});
  cases.push_back({"nested traits", Upsert(R"({"record":{"traits":{"a":{"b":1}}}})")});
  cases.push_back({"busy", Upsert(kRecord), "",
                   [](FakeBackend& b) { b.failure = std::make_exception_ptr(BusyError("held")); }});
  cases.push_back({"internal", Upsert(kRecord), "", [](FakeBackend& b) {
                     b.failure = std::make_exception_ptr(InternalError("ERROR: SELECT secret"));
                   }});
  for (auto& [name, request] : RefusedBeforeDecoding()) cases.push_back({name, request});
  {
    HttpRequest r = Upsert(kRecord);
    r.connect_timeout_ms = "60000";
    cases.push_back({"with a deadline", r});
    r = Upsert(std::string(5 * 1024, ' ') + kRecord);
    cases.push_back({"with leading spaces", r});
    // Once left to Handle() on a database thread; now every size takes the
    // one path.
    r = Upsert(std::string(100 * 1024, ' ') + kRecord);
    cases.push_back({"a body over 64 KiB", r});
    r = Upsert(std::string(Limits{}.max_body_bytes - std::strlen(kRecord), ' ') + kRecord);
    cases.push_back({"a body at the limit", r});
    r = Upsert(kRecord);
    r.target += "?x=1";
    cases.push_back({"with a query", r});
  }
  cases.push_back({"no token", Upsert(kRecord), "t0ken"});
  {
    HttpRequest r = Upsert(kRecord);
    r.authorization = "Bearer t0ken";
    cases.push_back({"right token", r, "t0ken"});
  }

  for (const Case& c : cases) {
    SECTION(c.name) {
      const Answer handled = Ask(c.request, false, c.token, c.setup);
      const Answer begun = Ask(c.request, true, c.token, c.setup);
      CHECK(begun.response.status == handled.response.status);
      CHECK(begun.response.content_type == handled.response.content_type);
      CHECK(begun.response.body == handled.response.body);
      CHECK(begun.counts == handled.counts);
      // Each call counts once, with its code; one refused for its token not
      // at all.
      const auto counted = std::count(begun.counts.begin(), begun.counts.end(), '\n');
      CHECK(counted == (begun.response.status == 401 ? 0 : 1));
      if (counted == 1) {
        CHECK_THAT(begun.counts, Catch::StartsWith("idres_rpc_requests_total{method=\"Upsert\",") &&
                                     Catch::EndsWith("} 1\n"));
      }
      REQUIRE(begun.upserted.size() == handled.upserted.size());
      for (std::size_t i = 0; i < begun.upserted.size(); ++i) {
        CHECK(begun.upserted[i].identifiers.size() == handled.upserted[i].identifiers.size());
        CHECK(begun.upserted[i].identifiers.front().value ==
              handled.upserted[i].identifiers.front().value);
      }
      CHECK(begun.asked_deadline.IsSet() == handled.asked_deadline.IsSet());
    }
  }
}

TEST_CASE("Begin takes every Upsert, whatever its size, and leaves the rest to Handle", "[api]") {
  FakeBackend backend;
  const IdentityService service(backend, nullptr, {});
  const RpcHandler handler(service, nullptr);
  HttpRequest r = Upsert(kRecord);
  CHECK(handler.Begin(r).has_value());
  r.body = std::string(1000 * 1000, ' ') + kRecord;
  CHECK(handler.Begin(r).has_value());
  r.body = kRecord;
  for (const char* target : {"/idres.v1.IdentityService/BatchUpsert",
                             "/idres.v1.IdentityService/Upserts", "/healthz", "/metrics", "/"}) {
    r.target = target;
    CHECK_FALSE(handler.Begin(r).has_value());
  }
}

TEST_CASE("An Upsert is refused before decoding exactly as the other methods are", "[api]") {
  auto cases = RefusedBeforeDecoding();
  for (auto& c : cases) c.second.authorization = "Bearer t0ken";
  cases.push_back({"no token", Upsert(kRecord)});
  for (const auto& [name, request] : cases) {
    SECTION(name) {
      HttpRequest other = request;
      other.target = std::string(RpcHandler::kServicePrefix) + "GetPerson";
      const Answer upsert = Ask(request, true, "t0ken", [](FakeBackend&) {});
      const Answer get = Ask(other, false, "t0ken", [](FakeBackend&) {});
      CHECK(upsert.response.status != 200);
      CHECK(upsert.response.status == get.response.status);
      CHECK(upsert.response.content_type == get.response.content_type);
      CHECK(upsert.response.body == get.response.body);
      CHECK(upsert.upserted.empty());
    }
  }
}

}  // namespace
}  // namespace idres::api
