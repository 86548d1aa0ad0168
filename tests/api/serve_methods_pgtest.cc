// Every IdentityService method against the real `idres serve` and database:
// in JSON sent by curl, and in binary proto; and a change feed consumer that
// keeps its position across a restart of the server.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <tuple>
#include <vector>

#include "api/idres/v1/identity.pb.h"
#include "matcher/model.h"
#include "tests/api/curl.h"
#include "tests/api/http_client.h"
#include "tests/api/server_process.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

using nlohmann::json;

json Body(const HttpReply& reply) {
  INFO("body: " << reply.body);
  return json::parse(reply.body);
}

TEST_CASE("Every method answers JSON sent by curl", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url());
  const int port = server.port();

  const auto health = CurlGet(port, "/healthz");
  CHECK(health.status == 200);
  CHECK(Body(health)["database"] == "up");

  const auto created = CurlCall(port, "Upsert", R"({"record":{
      "identifiers":[{"type":"email","value":"Anna@Example.com"},{"type":"phone","value":"+49 170 1234567"}],
      "traits":{"plan":"pro","seats":3,"active":true},"source":"crm"}})");
  REQUIRE(created.status == 200);
  const json c = Body(created);
  CHECK(c["outcome"] == "OUTCOME_CREATED");
  const std::string id = c["personId"];

  const auto updated = CurlCall(port, "Upsert", R"({"record":{
      "identifiers":[{"type":"phone","value":"+491701234567"},{"type":"cookie","value":"ck-1"}]}})");
  REQUIRE(updated.status == 200);
  CHECK(Body(updated)["personId"] == id);
  CHECK(Body(updated)["outcome"] == "OUTCOME_UPDATED");

  const auto person = CurlCall(port, "GetPerson", R"({"personId":")" + id + "\"}");
  REQUIRE(person.status == 200);
  const json p = Body(person)["person"];
  CHECK(p["personId"] == id);
  CHECK(p["identifiers"].size() == 3);
  CHECK(p["traits"]["plan"] == "pro");
  CHECK(p["traits"]["seats"] == 3);
  CHECK(p["traits"]["active"] == true);
  CHECK(p["records"].size() == 2);  // the two upserts, each a record
  CHECK(p["records"][0]["source"] == "crm");
  CHECK(p["traitSources"]["plan"]["source"] == "crm");
  CHECK(p.contains("createdAt"));
  CHECK_FALSE(p.contains("redirectedFrom"));

  const auto found =
      CurlCall(port, "Lookup",
               R"({"identifier":{"type":"phone","value":"0170 1234567"},"defaultRegion":"DE"})");
  REQUIRE(found.status == 200);
  CHECK(Body(found)["person"]["personId"] == id);

  const auto batch = CurlCall(port, "BatchUpsert", R"({"records":[
      {"identifiers":[{"type":"email","value":"anna@example.com"}]},
      {"identifiers":[{"type":"email","value":"bob@example.com"}]},
      {"identifiers":[{"type":"phone","value":"not a phone"}]}]})");
  REQUIRE(batch.status == 200);
  const json results = Body(batch)["results"];
  REQUIRE(results.size() == 3);
  CHECK(results[0]["personId"] == id);
  CHECK(results[1]["outcome"] == "OUTCOME_CREATED");
  CHECK(results[2]["error"]["code"] == "invalid_argument");

  const auto stats = CurlCall(port, "Stats", "{}");
  REQUIRE(stats.status == 200);
  CHECK(Body(stats)["persons"] == "2");
  CHECK(db.Count("SELECT count(*) FROM persons") == 2);
  CHECK(c["source"] == "crm");
  CHECK(c["recordId"].get<std::string>().rfind("g-", 0) == 0);

  // A record under its own id: replaced by the same id, then deleted.
  const auto named = CurlCall(port, "Upsert", R"({"record":{
      "identifiers":[{"type":"email","value":"carl@example.com"}],"source":"crm","recordId":"c-9"}})");
  REQUIRE(named.status == 200);
  CHECK(Body(named)["recordId"] == "c-9");
  const std::string carl = Body(named)["personId"];
  const auto replaced = CurlCall(port, "Upsert", R"({"record":{
      "identifiers":[{"type":"email","value":"carl@example.org"}],"source":"crm","recordId":"c-9"}})");
  REQUIRE(replaced.status == 200);
  CHECK(Body(replaced)["personId"] == carl);
  CHECK(db.Count("SELECT count(*) FROM identifiers WHERE value = 'carl@example.com'") == 0);
  const auto deleted = CurlCall(port, "DeleteRecord", R"({"source":"crm","recordId":"c-9"})");
  REQUIRE(deleted.status == 200);
  CHECK(Body(deleted)["personId"] == carl);
  CHECK(Body(deleted)["personRemoved"] == true);
  const auto again = CurlCall(port, "DeleteRecord", R"({"source":"crm","recordId":"c-9"})");
  CHECK(again.status == 404);
  CHECK(Body(again)["code"] == "not_found");
  CHECK(Body(again)["message"] == "no record \"c-9\" of source \"crm\" is stored");
  const auto bad = CurlCall(port, "DeleteRecord", R"({"source":"crm"})");
  CHECK(bad.status == 400);
  CHECK(Body(bad)["message"] == "recordId is required");
  const auto gone = CurlCall(port, "GetPerson", R"({"personId":")" + carl + "\"}");
  CHECK(gone.status == 404);
  CHECK(Body(gone)["message"].get<std::string>().find("its last record was deleted") !=
        std::string::npos);

  // Erasure: the person and what redirected to it answer that it was erased.
  const auto forgot = CurlCall(port, "ForgetPerson", R"({"personId":")" + id + "\"}");
  REQUIRE(forgot.status == 200);
  CHECK(Body(forgot)["personId"] == id);
  CHECK(Body(forgot)["erasedIds"] == json::array({id}));
  const auto erased = CurlCall(port, "GetPerson", R"({"personId":")" + id + "\"}");
  CHECK(erased.status == 404);
  CHECK(Body(erased)["message"].get<std::string>().rfind("person " + id + " was erased at ", 0) ==
        0);
  CHECK(CurlCall(port, "ForgetPerson", R"({"personId":")" + id + "\"}").status == 404);
  CHECK(db.Count("SELECT count(*) FROM identifiers WHERE value LIKE 'anna%'") == 0);
}

TEST_CASE("A merged-away id answers with its survivor and says so", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url());
  HttpClient client(server.port());
  const auto a = json::parse(
      client.Call("Upsert", R"({"record":{"identifiers":[{"type":"email","value":"a@x.org"}]}})")
          .body);
  const auto b = json::parse(
      client.Call("Upsert", R"({"record":{"identifiers":[{"type":"cookie","value":"k9"}]}})").body);
  const auto merged = client.Call(
      "Upsert",
      R"({"record":{"identifiers":[{"type":"email","value":"a@x.org"},{"type":"cookie","value":"k9"}]}})");
  REQUIRE(merged.status == 200);
  CHECK(json::parse(merged.body)["outcome"] == "OUTCOME_MERGED");
  const std::string absorbed = b["personId"];
  const auto person = client.Call("GetPerson", R"({"personId":")" + absorbed + "\"}");
  REQUIRE(person.status == 200);
  const auto p = json::parse(person.body)["person"];
  CHECK(p["personId"] == a["personId"]);
  CHECK(p["redirectedFrom"] == absorbed);
}

HttpReply ProtoCall(HttpClient& client, const std::string& method,
                    const google::protobuf::Message& request) {
  return client.Post("/idres.v1.IdentityService/" + method, "application/proto",
                     request.SerializeAsString());
}

template <typename Response>
Response Parse(const HttpReply& reply) {
  REQUIRE(reply.status == 200);
  CHECK(reply.content_type == "application/proto");
  Response response;
  REQUIRE(response.ParseFromString(reply.body));
  return response;
}

TEST_CASE("Every method answers binary proto", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url());
  HttpClient client(server.port());

  v1::UpsertRequest upsert;
  auto* email = upsert.mutable_record()->add_identifiers();
  email->set_type("email");
  email->set_value("proto@example.com");
  (*upsert.mutable_record()->mutable_traits()->mutable_fields())["tier"].set_string_value("gold");
  const auto created = Parse<v1::UpsertResponse>(ProtoCall(client, "Upsert", upsert));
  CHECK(created.outcome() == v1::OUTCOME_CREATED);
  CHECK(Parse<v1::UpsertResponse>(ProtoCall(client, "Upsert", upsert)).outcome() ==
        v1::OUTCOME_UNCHANGED);

  v1::GetPersonRequest get;
  get.set_person_id(created.person_id());
  const auto person = Parse<v1::GetPersonResponse>(ProtoCall(client, "GetPerson", get)).person();
  CHECK(person.identifiers(0).value() == "proto@example.com");
  CHECK(person.traits().fields().at("tier").string_value() == "gold");

  v1::LookupRequest lookup;
  lookup.mutable_identifier()->set_type("email");
  lookup.mutable_identifier()->set_value("PROTO@example.com");
  const auto looked = Parse<v1::LookupResponse>(ProtoCall(client, "Lookup", lookup));
  CHECK(looked.person().person_id() == created.person_id());
  REQUIRE(looked.persons_size() == 1);
  CHECK(looked.persons(0).person_id() == created.person_id());

  v1::BatchUpsertRequest batch;
  *batch.add_records() = upsert.record();
  batch.add_records()->add_identifiers()->set_type("email");  // empty value
  const auto results = Parse<v1::BatchUpsertResponse>(ProtoCall(client, "BatchUpsert", batch));
  REQUIRE(results.results_size() == 2);
  CHECK(results.results(0).person_id() == created.person_id());
  CHECK(results.results(1).error().code() == "invalid_argument");

  const auto stats = Parse<v1::StatsResponse>(ProtoCall(client, "Stats", v1::StatsRequest()));
  CHECK(stats.persons() == 1);
  CHECK(stats.identifiers() == 1);

  // Two records of one person; deleting the one that bridged splits it.
  v1::BatchUpsertRequest pair;
  for (const auto& [id, type, value] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"b-1", "phone", "+4917012345678"}, {"b-2", "email", "proto@example.com"}}) {
    v1::Record* r = pair.add_records();
    r->set_source("crm");
    r->set_record_id(id);
    r->add_identifiers()->set_type(type);
    r->mutable_identifiers(0)->set_value(value);
  }
  pair.mutable_records(1)->add_identifiers()->set_type("phone");
  pair.mutable_records(1)->mutable_identifiers(1)->set_value("+4917012345678");
  const auto both = Parse<v1::BatchUpsertResponse>(ProtoCall(client, "BatchUpsert", pair));
  REQUIRE(both.results_size() == 2);
  CHECK(both.results(1).record_id() == "b-2");
  CHECK(both.results(1).person_id() == created.person_id());
  v1::DeleteRecordRequest del;
  del.set_source("crm");
  del.set_record_id("b-2");
  const auto deleted = Parse<v1::DeleteRecordResponse>(ProtoCall(client, "DeleteRecord", del));
  CHECK(deleted.person_id() == created.person_id());
  CHECK_FALSE(deleted.person_removed());
  REQUIRE(deleted.split_person_ids_size() == 1);
  CHECK(db.Count("SELECT count(*) FROM persons") == 2);
}

TEST_CASE("ListChanges answers JSON sent by curl, page by page", "[pg][changes]") {
  TestDatabase db;
  ServerProcess server(db.url());
  const int port = server.port();
  const std::string a = Body(CurlCall(port, "Upsert",
                                      R"({"record":{"identifiers":[{"type":"email",)"
                                      R"("value":"a@x.org"}]}})"))["personId"];
  const std::string b = Body(CurlCall(port, "Upsert",
                                      R"({"record":{"identifiers":[{"type":"cookie",)"
                                      R"("value":"k"}]}})"))["personId"];
  REQUIRE(Body(CurlCall(port, "Upsert",
                        R"({"record":{"identifiers":[{"type":"email","value":"a@x.org"},)"
                        R"({"type":"cookie","value":"k"}]}})"))["outcome"] == "OUTCOME_MERGED");

  const auto first = CurlCall(port, "ListChanges", R"({"afterPosition":"0","limit":3})");
  REQUIRE(first.status == 200);
  const json page = Body(first);
  REQUIRE(page["changes"].size() == 3);
  CHECK(page["changes"][0]["position"] == "1");
  CHECK(page["changes"][0]["personId"] == a);
  CHECK(page["changes"][0]["kind"] == "CHANGE_KIND_CREATED");
  CHECK(page["changes"][0].contains("changedAt"));
  CHECK_FALSE(page["changes"][0].contains("otherId"));
  CHECK(page["changes"][2]["personId"] == b);
  CHECK(page["changes"][2]["kind"] == "CHANGE_KIND_MERGED");
  CHECK(page["changes"][2]["otherId"] == a);
  CHECK(page["nextAfterPosition"] == "3");

  const json rest = Body(CurlCall(port, "ListChanges", R"({"afterPosition":"3"})"));
  REQUIRE(rest["changes"].size() == 1);
  CHECK(rest["changes"][0]["kind"] == "CHANGE_KIND_UPDATED");
  CHECK(rest["changes"][0]["personId"] == a);
  CHECK(rest["nextAfterPosition"] == "4");
  const json none = Body(CurlCall(port, "ListChanges", R"({"afterPosition":"4"})"));
  CHECK(none["changes"].empty());
  CHECK(none["nextAfterPosition"] == "4");
  CHECK(CurlCall(port, "ListChanges", R"({"afterPosition":"-1"})").status == 400);
}

// The changes after `after` from the server on `port`, in binary proto.
v1::ListChangesResponse ListProto(int port, std::int64_t after) {
  HttpClient client(port);
  v1::ListChangesRequest request;
  request.set_after_position(after);
  return Parse<v1::ListChangesResponse>(ProtoCall(client, "ListChanges", request));
}

TEST_CASE("ListChanges answers binary proto, and a consumer's position outlives the server",
          "[pg][changes]") {
  TestDatabase db;
  std::int64_t last = 0;
  {
    ServerProcess server(db.url());
    HttpClient client(server.port());
    for (const char* email : {"p@x.org", "q@x.org"}) {
      REQUIRE(client
                  .Call("Upsert", std::string(R"({"record":{"identifiers":[{"type":"email",)") +
                                      R"("value":")" + email + R"("}]}})")
                  .status == 200);
    }
    const v1::ListChangesResponse seen = ListProto(server.port(), last);
    REQUIRE(seen.changes_size() == 2);
    CHECK(seen.changes(1).position() == 2);
    CHECK(seen.changes(1).kind() == v1::CHANGE_KIND_CREATED);
    CHECK(seen.changes(1).has_changed_at());
    CHECK_FALSE(seen.changes(1).has_other_id());
    last = seen.next_after_position();
    CHECK(last == 2);
  }
  // Another server on the same store: the consumer goes on where it was.
  ServerProcess again(db.url());
  HttpClient client(again.port());
  REQUIRE(
      client.Call("Upsert", R"({"record":{"identifiers":[{"type":"email","value":"r@x.org"}]}})")
          .status == 200);
  const v1::ListChangesResponse after = ListProto(again.port(), last);
  REQUIRE(after.changes_size() == 1);
  CHECK(after.changes(0).position() == 3);
  CHECK(ListProto(again.port(), 0).changes_size() == 3);
}

TEST_CASE("A steward's calls answer JSON: split, never-match, always-match", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url());
  const int port = server.port();
  const auto Upsert = [&](const std::string& record) {
    const auto reply = CurlCall(port, "Upsert", R"({"record":)" + record + "}");
    REQUIRE(reply.status == 200);
    return Body(reply)["personId"].get<std::string>();
  };
  const std::string id = Upsert(
      R"({"identifiers":[{"type":"email","value":"anna@x.org"}],"source":"crm","recordId":"a"})");
  Upsert(
      R"({"identifiers":[{"type":"email","value":"anna@x.org"},{"type":"phone","value":"+4917012345678"}],)"
      R"("source":"crm","recordId":"b"})");

  const auto split = CurlCall(port, "SplitPerson",
                              R"({"personId":")" + id +
                                  R"(","groups":[)"
                                  R"({"records":[{"source":"crm","recordId":"a"}]},)"
                                  R"({"records":[{"source":"crm","recordId":"b"}]}]})");
  REQUIRE(split.status == 200);
  CHECK(Body(split)["personId"] == id);
  REQUIRE(Body(split)["partIds"].size() == 1);
  const std::string part = Body(split)["partIds"][0];
  CHECK(db.Count("SELECT count(*) FROM persons") == 2);

  const auto bad = CurlCall(port, "SplitPerson", R"({"personId":")" + id + R"(","groups":[]})");
  CHECK(bad.status == 400);
  CHECK(Body(bad)["message"] == "a split needs at least two groups of records");
  CHECK(Body(bad)["code"] == "invalid_argument");
  // A record not stored: not found; the records of another person: not this
  // person's to split. Nothing is split either way.
  const auto Groups = [&](const std::string& person, const char* second) {
    return CurlCall(port, "SplitPerson",
                    R"({"personId":")" + person +
                        R"(","groups":[)"
                        R"({"records":[{"source":"crm","recordId":"a"}]},)"
                        R"({"records":[{"source":"crm","recordId":")" +
                        second + R"("}]}]})");
  };
  const auto missing = Groups(id, "zz");
  CHECK(missing.status == 404);
  CHECK(Body(missing)["code"] == "not_found");
  CHECK(Body(missing)["message"] == "no record 'zz' of source 'crm' is stored");
  const auto elsewhere = Groups(part, "b");  // a is person id's, b this one's
  CHECK(elsewhere.status == 400);
  CHECK(Body(elsewhere)["code"] == "failed_precondition");
  CHECK(db.Count("SELECT count(*) FROM persons") == 2);

  // Split parts are kept apart already; a never-match can also be said again.
  const std::string pair = R"({"personA":")" + id + R"(","personB":")" + part + R"("})";
  CHECK(CurlCall(port, "NeverMatch", pair).status == 200);
  const auto same =
      CurlCall(port, "NeverMatch", R"({"personA":")" + id + R"(","personB":")" + id + R"("})");
  CHECK(same.status == 400);
  CHECK(Body(same)["code"] == "failed_precondition");

  const auto merged = CurlCall(port, "AlwaysMatch", pair);
  REQUIRE(merged.status == 200);
  CHECK(Body(merged)["personId"] == id);
  CHECK(db.Count("SELECT count(*) FROM persons") == 1);
  CHECK(CurlCall(port, "AlwaysMatch", R"({"personA":"999","personB":")" + id + R"("})").status ==
        404);

  const auto history = CurlCall(port, "GetPersonHistory", R"({"personId":")" + id + "\"}");
  REQUIRE(history.status == 200);
  const json events = Body(history)["events"];
  REQUIRE(events.size() >= 5);
  CHECK(events[0]["kind"] == "created");
  CHECK(events[1]["kind"] == "record_added");
  CHECK(events[1]["recordId"] == "a");
  CHECK(events[0].contains("at"));
  CHECK(CurlCall(port, "GetPersonHistory", R"({"personId":"999"})").status == 404);
}

}  // namespace
}  // namespace idres::testing

namespace idres::testing {
namespace {

// Namesakes (one full name for, two towns against): a pair in the review
// band.
std::string NamesakeBody(const std::string& town, bool explain = false) {
  return R"({"record":{"identifiers":[{"type":"name","value":"Anna Berg"},{"type":"city","value":")" +
         town + R"("}]})" + (explain ? R"(,"explain":true})" : "}");
}

TEST_CASE(
    "Why answers JSON: Explain, Upsert with explain, ExplainPair, possible matches, a "
    "merge's breakdown",
    "[pg][explain]") {
  TestDatabase db;
  ServerProcess server(db.url());
  const int port = server.port();
  const std::string anna = Body(CurlCall(port, "Upsert", NamesakeBody("Uppsala")))["personId"];

  const auto what_if = CurlCall(port, "Explain", NamesakeBody("Lund"));
  REQUIRE(what_if.status == 200);
  const json e = Body(what_if)["explanation"];
  CHECK(e["decision"] == "create");
  CHECK(e["personId"] == "0");  // none was taken
  CHECK(e["threshold"] == Model::Defaults().threshold);
  CHECK(e["reviewThreshold"] == Model::Defaults().review_threshold);
  CHECK(e["normalized"].size() == 2);
  CHECK(e["keys"].size() > 0);
  REQUIRE(e["candidates"].size() == 1);
  const json near = e["candidates"][0];
  CHECK(near["personId"] == anna);
  CHECK(near["possible"] == true);
  CHECK(near["matched"] == false);
  REQUIRE(near["comparisons"].size() == 2);
  std::vector<std::string> levels;
  for (const json& c : near["comparisons"])
    levels.push_back(c["type"].get<std::string>() + ":" + c["level"].get<std::string>());
  std::sort(levels.begin(), levels.end());
  CHECK(levels == std::vector<std::string>{"city:different", "name:exact"});
  CHECK(db.Count("SELECT count(*) FROM persons") == 1);  // nothing written

  const json upserted = Body(CurlCall(port, "Upsert", NamesakeBody("Lund", true)));
  CHECK(upserted["outcome"] == "OUTCOME_CREATED");
  const std::string clara = upserted["personId"];
  CHECK(upserted["explanation"]["decision"] == "create");
  CHECK(upserted["explanation"]["personId"] == clara);
  CHECK(upserted["explanation"]["candidates"][0]["total"] == near["total"]);
  CHECK_FALSE(Body(CurlCall(port, "Upsert", NamesakeBody("Lund"))).contains("explanation"));

  const json pair = Body(
      CurlCall(port, "ExplainPair", R"({"personA":")" + clara + R"(","personB":")" + anna + "\"}"));
  CHECK(pair["personA"] == clara);
  CHECK(pair["score"]["total"] == near["total"]);
  CHECK(pair["score"]["possible"] == true);
  CHECK(CurlCall(port, "ExplainPair", R"({"personA":"1","personB":"0"})").status == 400);
  CHECK(CurlCall(port, "ExplainPair", R"({"personA":"1","personB":"99999"})").status == 404);

  const json listed = Body(CurlCall(port, "ListPossibleMatches", R"({"limit":10})"));
  REQUIRE(listed["matches"].size() == 1);
  CHECK(listed["matches"][0]["personA"] == anna);
  CHECK(listed["matches"][0]["personB"] == clara);
  CHECK(listed["matches"][0].contains("foundAt"));
  CHECK(listed["nextCursor"] == "");
  const auto bad = CurlCall(port, "ListPossibleMatches", R"({"cursor":"x"})");
  CHECK(bad.status == 400);
  CHECK(Body(bad)["message"] == "cursor x was not handed out");
  CHECK(CurlCall(port, "ListPossibleMatches", R"({"limit":5000})").status == 400);
  REQUIRE(
      CurlCall(port, "NeverMatch", R"({"personA":")" + anna + R"(","personB":")" + clara + "\"}")
          .status == 200);
  CHECK(Body(CurlCall(port, "ListPossibleMatches", "{}"))["matches"].empty());

  // A merge's breakdown in the survivor's history.
  const std::string a = Body(
      CurlCall(port, "Upsert",
               R"({"record":{"identifiers":[{"type":"email","value":"m@x.org"}]}})"))["personId"];
  CurlCall(port, "Upsert",
           R"({"record":{"identifiers":[{"type":"phone","value":"+4917012345678"}]}})");
  const json merged = Body(CurlCall(
      port, "Upsert",
      R"({"record":{"identifiers":[{"type":"email","value":"m@x.org"},{"type":"phone","value":"+4917012345678"}]},"explain":true})"));
  CHECK(merged["outcome"] == "OUTCOME_MERGED");
  CHECK(merged["explanation"]["decision"] == "merge");
  const json history = Body(CurlCall(port, "GetPersonHistory", R"({"personId":")" + a + "\"}"));
  const json* absorbed = nullptr;
  for (const json& ev : history["events"]) {
    if (ev["kind"] == "absorbed") absorbed = &ev;
  }
  REQUIRE(absorbed);
  REQUIRE((*absorbed)["scores"].size() == 2);
  CHECK((*absorbed)["threshold"] == Model::Defaults().threshold);
  CHECK((*absorbed)["scores"][0]["personId"] == a);
  CHECK((*absorbed)["scores"][0]["comparisons"][0]["type"] == "email");
  CHECK((*absorbed)["scores"][0]["comparisons"][0]["level"] == "exact");
}

TEST_CASE("Why answers binary proto", "[pg][explain]") {
  TestDatabase db;
  ServerProcess server(db.url());
  HttpClient client(server.port());
  const auto twin = [](const char* town) {
    v1::Record r;
    r.add_identifiers()->set_type("name");
    r.mutable_identifiers(0)->set_value("Anna Berg");
    r.add_identifiers()->set_type("city");
    r.mutable_identifiers(1)->set_value(town);
    return r;
  };
  v1::UpsertRequest upsert;
  *upsert.mutable_record() = twin("Uppsala");
  const auto anna = Parse<v1::UpsertResponse>(ProtoCall(client, "Upsert", upsert));
  v1::ExplainRequest explain;
  *explain.mutable_record() = twin("Lund");
  const auto e = Parse<v1::ExplainResponse>(ProtoCall(client, "Explain", explain)).explanation();
  CHECK(e.decision() == "create");
  REQUIRE(e.candidates_size() == 1);
  CHECK(e.candidates(0).person_id() == anna.person_id());
  CHECK(e.candidates(0).possible());
  *upsert.mutable_record() = twin("Lund");
  upsert.set_explain(true);
  const auto clara = Parse<v1::UpsertResponse>(ProtoCall(client, "Upsert", upsert));
  CHECK(clara.explanation().candidates(0).total() == e.candidates(0).total());
  v1::ExplainPairRequest pair;
  pair.set_person_a(clara.person_id());
  pair.set_person_b(anna.person_id());
  const auto p = Parse<v1::ExplainPairResponse>(ProtoCall(client, "ExplainPair", pair));
  CHECK(p.score().total() == e.candidates(0).total());
  v1::ListPossibleMatchesRequest list;
  list.set_limit(1);
  const auto page =
      Parse<v1::ListPossibleMatchesResponse>(ProtoCall(client, "ListPossibleMatches", list));
  REQUIRE(page.matches_size() == 1);
  CHECK(page.matches(0).person_a() == anna.person_id());
  CHECK(page.matches(0).score() == e.candidates(0).total());
  CHECK_FALSE(page.next_cursor().empty());  // a full page: ask again
  list.set_cursor(page.next_cursor());
  CHECK(Parse<v1::ListPossibleMatchesResponse>(ProtoCall(client, "ListPossibleMatches", list))
            .matches_size() == 0);
}

}  // namespace
}  // namespace idres::testing
