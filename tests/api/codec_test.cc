#include "api/connect/codec.h"

#include <catch2/catch.hpp>

#include "api/idres/v1/identity.pb.h"

namespace idres::api {
namespace {

TEST_CASE("Content types name the wire format") {
  CHECK(ParseContentType("application/json") == WireFormat::kJson);
  CHECK(ParseContentType("Application/JSON; charset=utf-8") == WireFormat::kJson);
  CHECK(ParseContentType("application/proto") == WireFormat::kProto);
  CHECK_FALSE(ParseContentType("application/grpc"));
  CHECK_FALSE(ParseContentType("text/plain"));
  CHECK_FALSE(ParseContentType(""));
}

TEST_CASE("JSON in the proto3 mapping decodes, with lowerCamelCase names") {
  v1::UpsertRequest request;
  const auto error = Decode(
      R"({"record":{"identifiers":[{"type":"email","value":"a@b.c"}],"defaultRegion":"DE",
          "traits":{"plan":"pro","seats":3,"active":true}}})",
      WireFormat::kJson, request);
  REQUIRE_FALSE(error);
  CHECK(request.record().identifiers(0).value() == "a@b.c");
  CHECK(request.record().default_region() == "DE");
  CHECK(request.record().traits().fields().at("seats").number_value() == 3);
}

TEST_CASE("Unknown JSON fields are refused, not dropped") {
  v1::UpsertRequest request;
  const auto error =
      Decode(R"({"record":{"identifiers":[],"colour":"red"}})", WireFormat::kJson, request);
  REQUIRE(error);
  CHECK(error->code == Code::kInvalidArgument);
  CHECK_THAT(error->message, Catch::Contains("colour"));
}

TEST_CASE("Malformed JSON and a wrong type are invalid_argument") {
  v1::GetPersonRequest request;
  for (const char* body : {"{", "[]", R"({"personId":"x"})", "not json"}) {
    const auto error = Decode(body, WireFormat::kJson, request);
    REQUIRE(error);
    CHECK(error->code == Code::kInvalidArgument);
  }
}

TEST_CASE("JSON that is not valid UTF-8 is refused with the offset") {
  v1::UpsertRequest request;
  const auto error = Decode("{\"record\":{\"source\":\"\xff\"}}", WireFormat::kJson, request);
  REQUIRE(error);
  CHECK(error->code == Code::kInvalidArgument);
  CHECK_THAT(error->message, Catch::Contains("UTF-8"));
}

TEST_CASE("Binary proto round-trips, a truncated message is invalid_argument") {
  v1::UpsertRequest request;
  auto* id = request.mutable_record()->add_identifiers();
  id->set_type("email");
  id->set_value("someone@example.com");
  const std::string wire = Encode(request, WireFormat::kProto);

  v1::UpsertRequest decoded;
  REQUIRE_FALSE(Decode(wire, WireFormat::kProto, decoded));
  CHECK(decoded.record().identifiers(0).value() == "someone@example.com");

  const auto error = Decode(wire.substr(0, wire.size() - 3), WireFormat::kProto, decoded);
  REQUIRE(error);
  CHECK(error->code == Code::kInvalidArgument);
}

TEST_CASE("A binary string field that is not valid UTF-8 is invalid_argument") {
  v1::Identifier identifier;
  identifier.set_type("email");
  std::string wire = Encode(identifier, WireFormat::kProto);
  wire += std::string("\x12\x02\xff\xfe", 4);  // field 2 (value), 2 bytes, invalid UTF-8
  v1::Identifier decoded;
  const auto error = Decode(wire, WireFormat::kProto, decoded);
  REQUIRE(error);
  CHECK(error->code == Code::kInvalidArgument);
}

TEST_CASE("JSON output prints default values and int64 as strings") {
  v1::StatsResponse stats;
  stats.set_persons(2);
  CHECK(Encode(stats, WireFormat::kJson) ==
        R"({"persons":"2","mergedAway":"0","identifiers":"0","records":"0","mergesToday":"0",)"
        R"("splitsToday":"0","openPairs":"0"})");
}

}  // namespace
}  // namespace idres::api
