// RpcHandler's two-step Upsert (Begin, then Finish with the outcome), as the
// server runs it with an AsyncUpserter, must answer every request exactly as
// Handle() does: the same status, body and metrics, and the same record and
// deadline reaching the backend.
#include <catch2/catch.hpp>

#include <sstream>

#include "api/codec.h"
#include "api/rpc_handler.h"
#include "engine/errors.h"
#include "tests/api/fake_backend.h"

namespace idres::api {
namespace {

using idres::testing::FakeBackend;

// Begin() never submits: the test applies the record to the backend itself.
class UnusedUpserter : public AsyncUpserter {
 public:
  void Submit(Record, const Deadline&, UpsertCallback) override { FAIL("Begin() submitted"); }
};

struct Answer {
  HttpResponse response;
  std::string counts;  // the idres_rpc_requests_total lines of /metrics
  std::vector<Record> upserted;
  Deadline asked_deadline;
};

// How a fresh handler over a fresh backend answers `request`, through
// Handle() or through Begin() and Finish(). `setup` prepares the backend.
template <typename Setup>
Answer Ask(const HttpRequest& request, bool two_step, const std::string& auth_token, Setup setup) {
  FakeBackend backend;
  setup(backend);
  Metrics metrics;
  UnusedUpserter upserter;
  HandlerOptions options;
  options.auth_token = auth_token;
  const RpcHandler handler(backend, &metrics, options, &upserter);
  Answer out;
  if (!two_step) {
    out.response = handler.Handle(request);
  } else {
    auto begun = handler.Begin(request);
    REQUIRE(begun.has_value());
    if (auto* refused = std::get_if<HttpResponse>(&*begun)) {
      out.response = std::move(*refused);
    } else {
      auto& upsert = std::get<PendingUpsert>(*begun);
      UpsertOutcome outcome;
      try {
        outcome.result = backend.Upsert(upsert.record, upsert.deadline);
      } catch (...) {
        outcome.error = std::current_exception();
      }
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

TEST_CASE("Begin and Finish answer an Upsert exactly as Handle does", "[api]") {
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
  {
    HttpRequest r = Upsert(kRecord);
    r.connect_timeout_ms = "0";
    cases.push_back({"deadline passed", r});
    r.connect_timeout_ms = "soon";
    cases.push_back({"bad deadline", r});
    r.connect_timeout_ms = "60000";
    cases.push_back({"with a deadline", r});
  }
  {
    HttpRequest r = Upsert(kRecord);
    r.method = "GET";
    cases.push_back({"GET", r});
    r = Upsert(kRecord);
    r.content_type = "text/plain";
    cases.push_back({"wrong media type", r});
    r = Upsert(kRecord);
    r.connect_protocol_version = "2";
    cases.push_back({"protocol version 2", r});
    r = Upsert(kRecord);
    r.content_encoding = "gzip";
    cases.push_back({"compressed", r});
    r = Upsert(std::string(5 * 1024, ' ') + kRecord);
    cases.push_back({"with leading spaces", r});
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

TEST_CASE("Begin leaves every other request, and a large body, to Handle", "[api]") {
  FakeBackend backend;
  UnusedUpserter upserter;
  const RpcHandler with(backend, nullptr, {}, &upserter);
  const RpcHandler without(backend, nullptr, {});
  HttpRequest r = Upsert(kRecord);
  CHECK(with.Begin(r).has_value());
  CHECK_FALSE(without.Begin(r).has_value());  // no upserter: Handle() does all
  // A body too large to decode on a network thread.
  r.body = std::string(RpcHandler::kMaxBeginBody, ' ') + kRecord;
  CHECK_FALSE(with.Begin(r).has_value());
  r.body = kRecord;
  for (const char* target : {"/idres.v1.IdentityService/BatchUpsert",
                             "/idres.v1.IdentityService/Upserts", "/healthz", "/metrics", "/"}) {
    r.target = target;
    CHECK_FALSE(with.Begin(r).has_value());
  }
}

}  // namespace
}  // namespace idres::api
