#include "client/client_requests.h"

#include <catch2/catch.hpp>

#include "batch/rpc_sink.h"

namespace idres::batch {
namespace {

using client::BatchRequestJson;
using client::ConnectErrorCode;
using client::ForgetReceiptsJson;
using client::ParseBatchResponse;
using client::RecordJson;

TEST_CASE("a record is encoded in the proto3 JSON of Record", "[rpc]") {
  Record r;
  r.identifiers = {{"phone", "0170 1234567"}};
  r.traits = {{"age", 42.0}, {"tier", std::string("gold")}, {"vip", true}};
  r.default_region = "DE";
  r.source = "crm";
  CHECK(RecordJson(r) ==
        R"({"defaultRegion":"DE","identifiers":[{"type":"phone","value":"0170 1234567"}],)"
        R"("source":"crm","traits":{"age":42.0,"tier":"gold","vip":true}})");
  std::vector<std::string> parts{"{}", "{}"};
  CHECK(BatchRequestJson(parts) == R"({"records":[{},{}]})");
}

TEST_CASE("a record whose text is not UTF-8 has no JSON, rather than other text", "[rpc]") {
  Record r;
  r.identifiers = {{"name", "Jos\xe9 M\xfcller"}};
  CHECK_FALSE(RecordJson(r).has_value());
  r.identifiers = {{"name", "José"}};
  r.traits = {{"city", std::string("K\xf6ln")}};
  CHECK_FALSE(RecordJson(r).has_value());
}

TEST_CASE("a receipt travels as int64 strings beside its records", "[rpc]") {
  std::vector<std::string> parts{"{}", "{}"};
  BatchReceipt receipt{-5, {17, 9007199254740993}};
  CHECK(BatchRequestJson(parts, &receipt) ==
        R"({"records":[{},{}],"receipt":{"job":"-5","items":["17","9007199254740993"]}})");
  CHECK(ForgetReceiptsJson(-5) == R"({"job":"-5"})");
}

TEST_CASE("a BatchUpsertResponse decodes, int64 as strings, errors per record", "[rpc]") {
  auto parsed = ParseBatchResponse(
      R"({"results":[{"personId":"12","outcome":"OUTCOME_MERGED","score":1,)"
      R"("mergedPersonIds":["3","4"],"rejected":[{"type":"phone","value":"1","reason":"short"}]},)"
      R"({"error":{"code":"invalid_argument","message":"no valid identifier"}}]})");
  REQUIRE(std::holds_alternative<std::vector<UpsertResult>>(parsed));
  const auto& results = std::get<std::vector<UpsertResult>>(parsed);
  REQUIRE(results.size() == 2);
  CHECK(results[0].person_id == 12);
  CHECK(results[0].outcome == Outcome::kMerged);
  CHECK(results[0].merged_person_ids == std::vector<std::int64_t>{3, 4});
  CHECK(results[0].rejected.at(0).reason == "short");
  CHECK(results[1].error.value() == "invalid_argument: no valid identifier");
  CHECK(std::get<std::string>(ParseBatchResponse("<html>")) == "the response is not JSON");
  std::string message;
  CHECK(ConnectErrorCode(R"({"code":"unavailable","message":"down"})", &message) == "unavailable");
  CHECK(message == "down");
}

TEST_CASE("the server sink refuses a URL that is not http://", "[rpc]") {
  CHECK_THROWS_AS(RpcSink("https://example.com"), std::invalid_argument);
  CHECK_NOTHROW(RpcSink("http://127.0.0.1:8080/prefix/"));
}

}  // namespace
}  // namespace idres::batch
