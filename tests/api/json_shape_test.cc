#include "api/connect/json_shape.h"

#include <catch2/catch.hpp>

#include "api/idres/v1/identity.pb.h"

namespace idres::api {
namespace {

std::optional<std::string> UpsertShape(const std::string& body) {
  return JsonShapeError(body, *v1::UpsertRequest::descriptor());
}

std::string Nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST_CASE("Ordinary requests pass the shape check") {
  CHECK_FALSE(UpsertShape(R"({"record":{"identifiers":[{"type":"email","value":"a@b.c"},
      {"type":"phone","value":"+49 170 1234567"}],"traits":{"plan":"pro","plan_type":1,
      "planType":2},"defaultRegion":"DE","source":"crm"}})"));
  CHECK_FALSE(JsonShapeError(R"({"records":[{"identifiers":[{"type":"email","value":"a@b.c"}]},
      {"identifiers":[{"type":"email","value":"b@b.c"}]}],"receipt":{"job":"1","items":["1","2"]}})",
                             *v1::BatchUpsertRequest::descriptor()));
}

TEST_CASE("Nesting past the limit is refused, however deep") {
  CHECK_FALSE(UpsertShape(R"({"record":{"traits":{"a":)" + Nested(kMaxJsonDepth - 3) + "}}}"));
  for (int depth : {kMaxJsonDepth, 25000, 200000}) {
    const auto error = UpsertShape(R"({"record":{"traits":{"a":)" + Nested(depth) + "}}}");
    REQUIRE(error);
    CHECK_THAT(*error, Catch::Contains("nested deeper than 16"));
  }
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += R"({"a":)";
  CHECK(UpsertShape(R"({"record":{"traits":{"a":)" + objects));
}

TEST_CASE("A field given twice is refused, by either of its names") {
  const auto identifiers = UpsertShape(
      R"({"record":{"identifiers":[{"type":"email","value":"victim@x.com"}],
                    "identifiers":[{"type":"email","value":"attacker@x.com"}]}})");
  REQUIRE(identifiers);
  CHECK_THAT(*identifiers, Catch::Contains("\"identifiers\" is given twice"));
  CHECK(UpsertShape(R"({"record":{},"record":{}})"));
  CHECK(UpsertShape(R"({"record":{"identifiers":[{"type":"email","type":"phone"}]}})"));
  // An escaped key is the same key.
  CHECK(UpsertShape(R"({"record":{},"rec\u006frd":{}})"));
  const auto alias = UpsertShape(R"({"record":{"defaultRegion":"DE","default_region":"US"}})");
  REQUIRE(alias);
  CHECK_THAT(*alias, Catch::Contains("default_region") && Catch::Contains("defaultRegion"));
}

TEST_CASE("What is not strict JSON is refused, so nothing slips past the check") {
  // Each of these protobuf's own parser would accept, and merge the lists.
  for (const std::string& lax : {
           std::string(R"({"record":{"traits":{"x":1,},"identifiers":[],"identifiers":[]}})"),
           std::string(R"({'record':{"identifiers":[],"identifiers":[]}})"),
           std::string(R"({record:{"identifiers":[],"identifiers":[]}})"),
           std::string(R"({"record":{"source":"a)") + '\n' + R"(b"}})",
           std::string(R"({"record":)"),
       }) {
    INFO(lax);
    const auto error = UpsertShape(lax);
    REQUIRE(error);
    CHECK_THAT(*error, Catch::Contains("malformed JSON at byte"));
  }
  // A number past double's range (protobuf refused it too).
  CHECK(UpsertShape(R"({"record":{"traits":{"big":1e400}}})"));
  // A lax token before deep nesting does not let the nesting through.
  CHECK(UpsertShape(R"({"record":{"traits":{'a':)" + Nested(25000) + "}}}"));
}

TEST_CASE("Trait keys are free, but one key twice is refused") {
  CHECK_FALSE(UpsertShape(R"({"record":{"traits":{"default_region":1,"defaultRegion":2}}})"));
  const auto twice = UpsertShape(R"({"record":{"traits":{"plan":"a","plan":"b"}}})");
  REQUIRE(twice);
  CHECK_THAT(*twice, Catch::Contains("\"plan\" is given twice"));
}

}  // namespace
}  // namespace idres::api
