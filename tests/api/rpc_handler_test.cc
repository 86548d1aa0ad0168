#include "api/connect/rpc_handler.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "api/connect/codec.h"
#include "engine/errors.h"
#include "tests/api/fake_backend.h"

namespace idres::api {
namespace {

using idres::testing::FakeBackend;

HttpRequest Json(std::string method, std::string body) {
  HttpRequest r;
  r.method = "POST";
  r.target = std::string(RpcHandler::kServicePrefix) + method;
  r.content_type = "application/json";
  r.body = std::move(body);
  return r;
}

struct Fixture {
  FakeBackend backend;
  Metrics metrics;
  ServiceOptions options;
  HttpResponse Send(const HttpRequest& request) {
    const IdentityService service(backend, &metrics, options);
    return RpcHandler(service, &metrics).Handle(request);
  }
};

std::string Identifiers(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    out += std::string(i ? "," : "") + R"({"type":"cookie","value":"c)" + std::to_string(i) + "\"}";
  }
  return out;
}

TEST_CASE_METHOD(Fixture, "Upsert in JSON answers the engine's result") {
  backend.upsert_result.person_id = 42;
  backend.upsert_result.outcome = Outcome::kCreated;
  const auto r = Send(Json("Upsert", R"({"record":{"identifiers":[{"type":"email","value":"a@b.c"}],
                                         "traits":{"plan":"pro"}}})"));
  CHECK(r.status == 200);
  CHECK(r.content_type == "application/json");
  CHECK_THAT(r.body, Catch::Contains(R"("personId":"42")") && Catch::Contains("OUTCOME_CREATED"));
  REQUIRE(backend.upserted.size() == 1);
  CHECK(backend.upserted[0].identifiers[0].value == "a@b.c");
}

TEST_CASE_METHOD(Fixture, "Upsert in binary proto answers binary proto") {
  backend.upsert_result.person_id = 5;
  v1::UpsertRequest request;
  request.mutable_record()->add_identifiers()->set_type("email");
  HttpRequest http = Json("Upsert", Encode(request, WireFormat::kProto));
  http.content_type = "application/proto";
  const auto r = Send(http);
  REQUIRE(r.status == 200);
  CHECK(r.content_type == "application/proto");
  v1::UpsertResponse response;
  REQUIRE(response.ParseFromString(r.body));
  CHECK(response.person_id() == 5);
}

TEST_CASE_METHOD(Fixture, "A record the engine refuses whole is invalid_argument with reasons") {
  backend.upsert_result.error = "no valid identifier";
  backend.upsert_result.rejected = {{"phone", "abc", "not a possible phone number"}};
  const auto r =
      Send(Json("Upsert", R"({"record":{"identifiers":[{"type":"phone","value":"abc"}]}})"));
  CHECK(r.status == 400);
  CHECK_THAT(r.body, Catch::Contains(R"("code":"invalid_argument")") &&
                         Catch::Contains("not a possible phone number"));
}

TEST_CASE_METHOD(Fixture, "Upsert without a record, or with nested traits, is invalid_argument") {
  CHECK(Send(Json("Upsert", "{}")).status == 400);
  const auto r = Send(Json("Upsert", R"({"record":{"traits":{"a":{"b":1}}}})"));
  CHECK(r.status == 400);
  CHECK_THAT(r.body, Catch::Contains("flat"));
  CHECK(backend.upserted.empty());
}

TEST_CASE_METHOD(Fixture,
                 "More identifiers than the limit is resource_exhausted, unseen by the engine") {
  backend.limits.max_identifiers = 100;
  CHECK(Send(Json("Upsert", R"({"record":{"identifiers":[)" + Identifiers(100) + "]}}")).status ==
        200);
  const auto r = Send(Json("Upsert", R"({"record":{"identifiers":[)" + Identifiers(10000) + "]}}"));
  CHECK(r.status == 429);
  CHECK_THAT(r.body, Catch::Contains("resource_exhausted") && Catch::Contains("10000"));
  CHECK(backend.upserted.size() == 1);
}

TEST_CASE_METHOD(Fixture, "A body over the limit is resource_exhausted") {
  options.limits.max_body_bytes = 64;
  const auto r = Send(Json("Upsert", R"({"record":{"source":")" + std::string(100, 'x') + "\"}}"));
  CHECK(r.status == 429);
}

TEST_CASE_METHOD(Fixture,
                 "BatchUpsert answers one result per record, bad ones carry their own error") {
  backend.limits.max_identifiers = 2;
  const auto r = Send(Json("BatchUpsert", R"({"records":[
      {"identifiers":[{"type":"email","value":"a@b.c"}]},
      {"identifiers":[)" + Identifiers(3) + R"(]},
      {"identifiers":[{"type":"email","value":"d@e.f"}],"traits":{"x":[1]}},
      {"identifiers":[]},
      {"identifiers":[{"type":"email","value":"g@h.i"}]}]})"));
  REQUIRE(r.status == 200);
  v1::BatchUpsertResponse response;
  REQUIRE_FALSE(Decode(r.body, WireFormat::kJson, response));
  REQUIRE(response.results_size() == 5);
  CHECK(response.results(0).person_id() == 1);
  CHECK_FALSE(response.results(0).has_error());
  CHECK(response.results(1).error().code() == "resource_exhausted");
  CHECK(response.results(2).error().code() == "invalid_argument");
  CHECK(response.results(3).error().code() == "invalid_argument");  // refused by the engine
  CHECK(response.results(4).person_id() == 3);
  CHECK(backend.upserted.size() == 3);
}

TEST_CASE_METHOD(Fixture, "A batch over the limit is refused whole") {
  options.limits.max_batch = 2;
  const auto r = Send(Json("BatchUpsert", R"({"records":[{},{},{}]})"));
  CHECK(r.status == 429);
  CHECK(backend.upserted.empty());
}

TEST_CASE_METHOD(Fixture, "A batch receipt reaches the backend with the accepted records' items") {
  backend.limits.max_identifiers = 2;
  const auto r = Send(Json("BatchUpsert", R"({"records":[
      {"identifiers":[{"type":"email","value":"a@b.c"}]},
      {"identifiers":[)" + Identifiers(3) + R"(]},
      {"identifiers":[{"type":"email","value":"g@h.i"}]}],
      "receipt":{"job":"-9007199254740993","items":["10","20",30]}})"));
  REQUIRE(r.status == 200);
  REQUIRE(backend.receipts.size() == 1);
  CHECK(backend.receipts[0].job == -9007199254740993);
  // The refused record is not stored, so its item is not either.
  CHECK(backend.receipts[0].items == std::vector<std::int64_t>{10, 30});
  CHECK(backend.upserted.size() == 2);
}

TEST_CASE_METHOD(Fixture, "A batch without a receipt is applied as before receipts") {
  const auto r = Send(
      Json("BatchUpsert", R"({"records":[{"identifiers":[{"type":"email","value":"a@b.c"}]}]})"));
  REQUIRE(r.status == 200);
  CHECK(backend.receipts.empty());
  CHECK(backend.upserted.size() == 1);
}

TEST_CASE_METHOD(Fixture, "A receipt without one item per record is invalid_argument") {
  const std::string two =
      R"({"identifiers":[{"type":"email","value":"a@b.c"}]},{"identifiers":[{"type":"email","value":"d@e.f"}]})";
  for (const std::string items : {R"([])", R"(["1"])", R"(["1","2","3"])"}) {
    const auto r =
        Send(Json("BatchUpsert", "{\"records\":[" + two +
                                     "],\"receipt\":{\"job\":\"7\",\"items\":" + items + "}}"));
    INFO(items << " -> " << r.body);
    CHECK(r.status == 400);
    CHECK_THAT(r.body, Catch::Contains(R"("code":"invalid_argument")") &&
                           Catch::Contains("one item per record"));
  }
  CHECK(backend.upserted.empty());
  CHECK(backend.receipts.empty());
}

TEST_CASE_METHOD(Fixture, "A receipt with an item twice is invalid_argument") {
  const auto r = Send(Json("BatchUpsert", R"({"records":[
      {"identifiers":[{"type":"email","value":"a@b.c"}]},
      {"identifiers":[{"type":"email","value":"b@b.c"}]}],
      "receipt":{"job":"1","items":["7","7"]}})"));
  CHECK(r.status == 400);
  CHECK_THAT(r.body, Catch::Contains("receipt item 7 is given twice"));
  CHECK(backend.upserted.empty());
}

TEST_CASE_METHOD(Fixture, "ForgetReceipts forgets the job's receipts") {
  const auto r = Send(Json("ForgetReceipts", R"({"job":"42"})"));
  CHECK(r.status == 200);
  CHECK(r.body == "{}");
  CHECK(backend.forgotten == std::vector<std::int64_t>{42});
}

TEST_CASE_METHOD(Fixture, "GetPerson answers the person, or not_found") {
  const auto missing = Send(Json("GetPerson", R"({"personId":"12"})"));
  CHECK(missing.status == 404);
  CHECK_THAT(missing.body, Catch::Contains("not_found"));
  CHECK(backend.asked_id == 12);
  backend.person = Person{};
  backend.person->id = 12;
  backend.person->identifiers = {{"email", "a@b.c"}};
  const auto found = Send(Json("GetPerson", R"({"personId":12})"));
  CHECK(found.status == 200);
  CHECK_THAT(found.body, Catch::Contains(R"("personId":"12")"));
  CHECK(Send(Json("GetPerson", R"({"personId":0})")).status == 400);
}

TEST_CASE_METHOD(Fixture, "Lookup passes identifier and region, a rejection is invalid_argument") {
  CHECK(Send(Json("Lookup",
                  R"({"identifier":{"type":"phone","value":"0170 1"},"defaultRegion":"DE"})"))
            .status == 404);
  CHECK(backend.asked_identifier.value == "0170 1");
  CHECK(backend.asked_region == "DE");
  backend.lookup_result = Rejection{"phone", "x", "not a possible phone number"};
  const auto r = Send(Json("Lookup", R"({"identifier":{"type":"phone","value":"x"}})"));
  CHECK(r.status == 400);
  CHECK_THAT(r.body, Catch::Contains("not a possible phone number"));
  Person a, b;
  a.id = 4;
  b.id = 9;
  backend.lookup_result = std::vector<Person>{a, b};
  const auto both = Send(Json("Lookup", R"({"identifier":{"type":"phone","value":"x"}})"));
  CHECK(both.status == 200);
  // The oldest holder as `person`, every holder in `persons`.
  CHECK_THAT(both.body, Catch::Contains(R"("person":{"personId":"4")"));
  CHECK_THAT(both.body, Catch::Contains(R"("persons":[{"personId":"4")"));
  CHECK_THAT(both.body, Catch::Contains(R"({"personId":"9")"));
}

TEST_CASE_METHOD(Fixture, "Stats answers the counts") {
  backend.stats = StoreStats{3, 1, 9, 5, 1, 2, 4};
  const auto r = Send(Json("Stats", "{}"));
  CHECK(r.body ==
        R"({"persons":"3","mergedAway":"1","identifiers":"9","records":"5","mergesToday":"1",)"
        R"("splitsToday":"2","openPairs":"4"})");
}

TEST_CASE_METHOD(Fixture, "GetModel answers the backend's model, each level beside the built-in") {
  TypeModel& email = backend.served.types.at("email");
  email.levels[0].m = 0.5;
  email.levels[0].u = 0.0005;
  backend.served.types["loyalty_id"] = email;  // a type of the user's own
  backend.served.threshold = 12.25;
  backend.served.blocking = {{"email_local", {"email.local"}}};
  v1::GetModelResponse model;
  REQUIRE_FALSE(Decode(Send(Json("GetModel", "{}")).body, WireFormat::kJson, model));
  CHECK(model.threshold() == 12.25);
  CHECK(model.review_threshold() == backend.served.review_threshold);
  REQUIRE(model.blocking_rules_size() == 1);
  CHECK(model.blocking_rules(0).parts(0) == "email.local");
  REQUIRE(model.comparisons_size() == static_cast<int>(backend.served.types.size()));
  const auto comparison = [&](const std::string& type) {
    for (const auto& c : model.comparisons()) {
      if (c.type() == type) return c;
    }
    FAIL("no comparison " << type);
    return v1::ModelComparison{};
  };
  const v1::ModelComparison e = comparison("email");
  CHECK(e.comparison() == "email");
  CHECK(e.strong());
  REQUIRE(e.levels_size() == static_cast<int>(email.levels.size()));
  CHECK(e.levels(0).name() == "exact");
  CHECK(e.levels(0).m() == 0.5);
  CHECK(e.levels(0).weight() == Approx(std::log2(1000.0)));
  CHECK(e.levels(0).built_in_weight() ==
        Approx(Model::Defaults().Find("email")->levels[0].weight()));
  // The built-in model has no such type: nothing to set beside it.
  CHECK_FALSE(comparison("loyalty_id").levels(0).has_built_in_weight());
}

TEST_CASE_METHOD(Fixture, "ListChanges answers the changes and the position to ask after") {
  Change merged;
  merged.position = 8;
  merged.person_id = 5;
  merged.kind = ChangeKind::kMerged;
  merged.other_id = 2;
  merged.changed_at = FromMicros(1767323045123456);
  backend.changes = {merged};
  const auto r = Send(Json("ListChanges", R"({"afterPosition":"7","limit":10})"));
  CHECK(r.status == 200);
  CHECK(r.body ==
        R"({"changes":[{"position":"8","personId":"5","kind":"CHANGE_KIND_MERGED","otherId":"2",)"
        R"("changedAt":"2026-01-02T03:04:05.123456Z"}],"nextAfterPosition":"8"})");
  CHECK(backend.asked_id == 7);
  CHECK(backend.asked_limit == 10);
  // No limit: the most; nothing new: ask after the same position again.
  backend.changes.clear();
  CHECK(Send(Json("ListChanges", R"({"afterPosition":"8"})")).body ==
        R"({"changes":[],"nextAfterPosition":"8"})");
  CHECK(backend.asked_limit == 1000);
  CHECK(Send(Json("ListChanges", R"({"afterPosition":"-1"})")).status == 400);
  CHECK(Send(Json("ListChanges", R"({"limit":-5})")).status == 400);
}

TEST_CASE_METHOD(Fixture, "Retryable engine failures are unavailable (503)") {
  for (auto failure : {std::make_exception_ptr(BusyError("lock")),
                       std::make_exception_ptr(UnavailableError("down")),
                       std::make_exception_ptr(ConflictError("deadlocks"))}) {
    backend.failure = failure;
    const auto r = Send(Json("Stats", "{}"));
    CHECK(r.status == 503);
    CHECK_THAT(r.body, Catch::Contains(R"("code":"unavailable")"));
  }
}

TEST_CASE_METHOD(Fixture, "A record with more traits than allowed is resource_exhausted") {
  backend.limits.max_traits = 2;
  const auto r = Send(Json("Upsert", R"({"record":{"identifiers":[{"type":"email","value":"a@b.c"}],
                                        "traits":{"a":1,"b":2,"c":3}}})"));
  CHECK(r.status == 429);
  CHECK_THAT(r.body, Catch::Contains("too many traits: 3 (at most 2)"));
  CHECK(backend.upserted.empty());
}

TEST_CASE_METHOD(Fixture, "JSON with a field twice or nested past the limit never runs") {
  const auto twice = Send(Json("Upsert", R"({"record":{
      "identifiers":[{"type":"email","value":"victim@x.com"}],
      "identifiers":[{"type":"email","value":"attacker@x.com"}]}})"));
  CHECK(twice.status == 400);
  CHECK_THAT(twice.body, Catch::Contains("given twice"));
  const std::string deep = std::string(25000, '[') + std::string(25000, ']');
  const auto nested = Send(Json("Upsert", R"({"record":{"traits":{"a":)" + deep + "}}}"));
  CHECK(nested.status == 400);
  CHECK_THAT(nested.body, Catch::Contains("nested deeper"));
  CHECK(backend.upserted.empty());
}

TEST_CASE_METHOD(Fixture, "Connect-Timeout-Ms reaches the backend as the call's deadline") {
  HttpRequest request =
      Json("Upsert", R"({"record":{"identifiers":[{"type":"email","value":"a@b.c"}]}})");
  request.connect_timeout_ms = "60000";
  REQUIRE(Send(request).status == 200);
  CHECK(backend.asked_deadline.IsSet());
  CHECK_FALSE(backend.asked_deadline.Passed());
  request.connect_timeout_ms.reset();
  REQUIRE(Send(request).status == 200);
  CHECK_FALSE(backend.asked_deadline.IsSet());
}

TEST_CASE_METHOD(Fixture, "A call whose deadline passed is deadline_exceeded (504)") {
  HttpRequest request =
      Json("Upsert", R"({"record":{"identifiers":[{"type":"email","value":"a@b.c"}]}})");
  // Already over when it is handled: the backend is never asked.
  request.connect_timeout_ms = "0";
  auto r = Send(request);
  CHECK(r.status == 504);
  CHECK_THAT(r.body, Catch::Contains(R"("code":"deadline_exceeded")"));
  CHECK(backend.upserted.empty());
  // Over while the engine worked: its DeadlineError says what happened.
  request.connect_timeout_ms = "60000";
  backend.failure =
      std::make_exception_ptr(DeadlineError("the deadline passed; nothing was written"));
  r = Send(request);
  CHECK(r.status == 504);
  CHECK_THAT(r.body, Catch::Contains(R"("code":"deadline_exceeded")") &&
                         Catch::Contains("nothing was written"));
}

TEST_CASE_METHOD(Fixture, "A malformed Connect-Timeout-Ms is invalid_argument, never run") {
  HttpRequest request =
      Json("Upsert", R"({"record":{"identifiers":[{"type":"email","value":"a@b.c"}]}})");
  request.connect_timeout_ms = "soon";
  const auto r = Send(request);
  CHECK(r.status == 400);
  CHECK_THAT(r.body, Catch::Contains(R"("code":"invalid_argument")") &&
                         Catch::Contains("Connect-Timeout-Ms"));
  CHECK(backend.upserted.empty());
}

TEST_CASE_METHOD(Fixture, "Other failures are internal and never show their text") {
  backend.failure = std::make_exception_ptr(InternalError("ERROR: SELECT * FROM persons failed"));
  const auto r = Send(Json("Stats", "{}"));
  CHECK(r.status == 500);
  CHECK_THAT(r.body, Catch::Contains(R"("code":"internal")"));
  CHECK_THAT(r.body, !Catch::Contains("SELECT") && !Catch::Contains("persons"));
  backend.failure = std::make_exception_ptr(std::runtime_error("pqxx: SELECT 1"));
  CHECK_THAT(Send(Json("Stats", "{}")).body, !Catch::Contains("SELECT"));
}

TEST_CASE_METHOD(Fixture, "Routing: unknown paths 404, wrong verbs 405, wrong media types 415") {
  CHECK(Send(Json("Nope", "{}")).status == 404);
  HttpRequest other = Json("Stats", "{}");
  other.target = "/elsewhere";
  CHECK(Send(other).status == 404);
  HttpRequest get = Json("Stats", "{}");
  get.method = "GET";
  CHECK(Send(get).status == 405);
  HttpRequest text = Json("Stats", "{}");
  text.content_type = "text/plain";
  CHECK(Send(text).status == 415);
  HttpRequest gzip = Json("Stats", "{}");
  gzip.content_encoding = "gzip";
  CHECK(Send(gzip).status == 501);
  gzip.content_encoding = "IDENTITY";  // header values' case does not matter
  CHECK(Send(gzip).status == 200);
}

TEST_CASE_METHOD(Fixture, "Connect-Protocol-Version other than 1 is invalid_argument") {
  HttpRequest request = Json("Stats", "{}");
  request.connect_protocol_version = "1";
  CHECK(Send(request).status == 200);
  for (const char* bad : {"2", "", "1, 1", "abc"}) {
    request.connect_protocol_version = bad;
    const auto r = Send(request);
    CHECK(r.status == 400);
    CHECK_THAT(r.body, Catch::Contains("Connect-Protocol-Version must be 1"));
  }
}

TEST_CASE_METHOD(Fixture, "/healthz says whether the database answers") {
  HttpRequest health;
  health.method = "GET";
  health.target = "/healthz";
  CHECK(Send(health).status == 200);
  CHECK_THAT(Send(health).body, Catch::Contains(R"("database":"up")"));
  backend.healthy = false;
  CHECK(Send(health).status == 503);
  CHECK_THAT(Send(health).body, Catch::Contains(R"("database":"down")"));
}

TEST_CASE_METHOD(Fixture, "With an auth token every path but /healthz needs the bearer token") {
  options.access = testing::AdminOnly("t0ken");
  HttpRequest call = Json("Stats", "{}");
  const auto refused = Send(call);
  CHECK(refused.status == 401);
  CHECK_THAT(refused.body, Catch::Contains("unauthenticated"));
  call.authorization = "Bearer wrong";
  CHECK(Send(call).status == 401);
  call.authorization = "Bearer t0ken";
  CHECK(Send(call).status == 200);

  HttpRequest metrics_request;
  metrics_request.method = "GET";
  metrics_request.target = "/metrics";
  CHECK(Send(metrics_request).status == 401);
  metrics_request.authorization = "Bearer t0ken";
  CHECK(Send(metrics_request).status == 200);

  HttpRequest health;
  health.method = "GET";
  health.target = "/healthz";
  CHECK(Send(health).status == 200);
}

TEST_CASE_METHOD(Fixture, "Requests are counted by method and code on /metrics") {
  Send(Json("Stats", "{}"));
  Send(Json("Upsert", "{"));
  Send(Json("GetPerson", R"({"personId":"7"})"));  // not_found, answered as HTTP 404
  Send(Json("NoSuchMethod", "{}"));                // not a call of the service
  HttpRequest scrape;
  scrape.method = "GET";
  scrape.target = "/metrics";
  const auto r = Send(scrape);
  CHECK(r.status == 200);
  CHECK_THAT(r.body, Catch::Contains(R"(idres_rpc_requests_total{method="Stats",code="ok"} 1)"));
  CHECK_THAT(r.body, Catch::Contains(
                         R"(idres_rpc_requests_total{method="Upsert",code="invalid_argument"} 1)"));
  CHECK_THAT(r.body,
             Catch::Contains(R"(idres_rpc_requests_total{method="GetPerson",code="not_found"} 1)"));
  CHECK_THAT(r.body, !Catch::Contains("NoSuchMethod"));
  CHECK_THAT(r.body, Catch::Contains("idres_pool_connections_in_use 3"));
}

}  // namespace
}  // namespace idres::api
