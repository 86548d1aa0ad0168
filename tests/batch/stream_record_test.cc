#include "batch/stream_record.h"

#include <catch2/catch.hpp>

#include "api/idres/v1/identity.pb.h"

namespace idres::batch {
namespace {

const StreamDefaults kDefaults{"kafka:in", "DE"};

TEST_CASE("stream record: an NDJSON message is the record, with the defaults it lacks",
          "[consume]") {
  auto parsed = ParseStreamRecord(
      R"({"identifiers":[{"type":"phone","value":"0170 1234567"}],"source":"crm"})",
      StreamFormat::kNdjson, kDefaults);
  REQUIRE(std::holds_alternative<Record>(parsed));
  const Record& r = std::get<Record>(parsed);
  CHECK(r.source == "crm");
  CHECK(r.default_region == "DE");
  REQUIRE(r.identifiers.size() == 1);
  CHECK(r.identifiers[0].value == "0170 1234567");
}

TEST_CASE("stream record: what is no record is a reason", "[consume]") {
  for (const char* value : {"{not json", "[]", R"({"identifiers":[],"colour":"red"})"}) {
    INFO(value);
    auto parsed = ParseStreamRecord(value, StreamFormat::kNdjson, kDefaults);
    REQUIRE(std::holds_alternative<std::string>(parsed));
    CHECK_FALSE(std::get<std::string>(parsed).empty());
  }
  auto garbage = ParseStreamRecord("\xff\xff\xff", StreamFormat::kProto, kDefaults);
  REQUIRE(std::holds_alternative<std::string>(garbage));
  CHECK(std::get<std::string>(garbage) == "not a binary idres.v1.Record message");
}

TEST_CASE("stream record: a binary idres.v1.Record is mapped as the service maps it", "[consume]") {
  v1::Record message;
  auto* id = message.add_identifiers();
  id->set_type("email");
  id->set_value("anna@example.com");
  (*message.mutable_traits()->mutable_fields())["tier"].set_string_value("gold");
  (*message.mutable_traits()->mutable_fields())["nested"].mutable_struct_value();
  auto refused = ParseStreamRecord(message.SerializeAsString(), StreamFormat::kProto, kDefaults);
  REQUIRE(std::holds_alternative<std::string>(refused));  // a nested trait, as the service says
  message.mutable_traits()->mutable_fields()->erase("nested");
  auto parsed = ParseStreamRecord(message.SerializeAsString(), StreamFormat::kProto, kDefaults);
  REQUIRE(std::holds_alternative<Record>(parsed));
  const Record& r = std::get<Record>(parsed);
  CHECK(r.source == "kafka:in");
  CHECK(r.identifiers.at(0).value == "anna@example.com");
  CHECK(std::get<std::string>(r.traits.at("tier")) == "gold");
}

}  // namespace
}  // namespace idres::batch
