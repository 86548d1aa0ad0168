// BatchUpsert's receipt against the real `idres serve` and database: a batch
// sent again after a crash (with its receipt) is stored once.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/api/http_client.h"
#include "tests/api/server_process.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

using nlohmann::json;

// Two records of a name alone: a name brings no blocking key, so each
// application of such a record creates a new person. Only a receipt keeps a
// second sending from duplicating them.
const std::string kRecords = R"("records":[
    {"identifiers":[{"type":"name","value":"Anna Berg"}]},
    {"identifiers":[{"type":"name","value":"Ben Kurz"}]}])";

json Results(const HttpReply& reply) {
  INFO("status " << reply.status << ", body: " << reply.body);
  REQUIRE(reply.status == 200);
  return json::parse(reply.body)["results"];
}

TEST_CASE("A BatchUpsert with a receipt sent twice is stored once", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url());
  HttpClient client(server.port());
  const std::string with_receipt =
      "{" + kRecords + R"(,"receipt":{"job":"77","items":["100","250"]}})";

  const json first = Results(client.Call("BatchUpsert", with_receipt));
  CHECK(first[0]["outcome"] == "OUTCOME_CREATED");
  CHECK(first[1]["outcome"] == "OUTCOME_CREATED");
  CHECK(db.Count("SELECT count(*) FROM persons") == 2);
  CHECK(db.Count("SELECT count(*) FROM import_receipts WHERE job = 77") == 2);

  const json again = Results(client.Call("BatchUpsert", with_receipt));
  CHECK(again[0]["outcome"] == "OUTCOME_UNCHANGED");
  CHECK(again[1]["outcome"] == "OUTCOME_UNCHANGED");
  CHECK(db.Count("SELECT count(*) FROM persons") == 2);

  SECTION("another job's receipt does not hold the records back") {
    Results(client.Call("BatchUpsert",
                        "{" + kRecords + R"(,"receipt":{"job":"78","items":["100","250"]}})"));
    CHECK(db.Count("SELECT count(*) FROM persons") == 4);
  }
  SECTION("without a receipt the records are applied again, as before receipts") {
    Results(client.Call("BatchUpsert", "{" + kRecords + "}"));
    CHECK(db.Count("SELECT count(*) FROM persons") == 4);
    CHECK(db.Count("SELECT count(*) FROM import_receipts") == 2);
  }
  SECTION("ForgetReceipts drops the job's receipts") {
    const auto forgot = client.Call("ForgetReceipts", R"({"job":"77"})");
    CHECK(forgot.status == 200);
    CHECK(db.Count("SELECT count(*) FROM import_receipts") == 0);
    Results(client.Call("BatchUpsert", with_receipt));
    CHECK(db.Count("SELECT count(*) FROM persons") == 4);
  }
}

TEST_CASE("A receipt without one item per record is invalid_argument, and nothing is stored",
          "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url());
  HttpClient client(server.port());
  const auto reply =
      client.Call("BatchUpsert", "{" + kRecords + R"(,"receipt":{"job":"77","items":["100"]}})");
  INFO(reply.body);
  CHECK(reply.status == 400);
  const json error = json::parse(reply.body);
  CHECK(error["code"] == "invalid_argument");
  CHECK(error["message"] ==
        "receipt has 1 items for 2 records; it needs exactly one item per record, in order");
  CHECK(db.Count("SELECT count(*) FROM persons") == 0);
  CHECK(db.Count("SELECT count(*) FROM import_receipts") == 0);
}

}  // namespace
}  // namespace idres::testing
