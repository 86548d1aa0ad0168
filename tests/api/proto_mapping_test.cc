#include "api/service/proto_mapping.h"

#include "client/client_requests.h"

#include <catch2/catch.hpp>

namespace idres::api {
namespace {

v1::Record RecordWithTrait(const std::string& key, const google::protobuf::Value& value) {
  v1::Record record;
  auto* id = record.add_identifiers();
  id->set_type("email");
  id->set_value("a@b.c");
  (*record.mutable_traits()->mutable_fields())[key] = value;
  return record;
}

TEST_CASE("Flat traits become the engine's string, number and boolean values") {
  v1::Record record;
  auto& fields = *record.mutable_traits()->mutable_fields();
  fields["plan"].set_string_value("pro");
  fields["seats"].set_number_value(3.5);
  fields["active"].set_bool_value(true);
  record.set_default_region("DE");
  record.set_source("crm");
  const auto converted = ToRecord(record);
  REQUIRE(std::holds_alternative<Record>(converted));
  const auto& r = std::get<Record>(converted);
  CHECK(std::get<std::string>(r.traits.at("plan")) == "pro");
  CHECK(std::get<double>(r.traits.at("seats")) == 3.5);
  CHECK(std::get<bool>(r.traits.at("active")));
  CHECK(r.default_region == "DE");
  CHECK(r.source == "crm");
}

TEST_CASE("Nested, list and null traits are refused with a reason naming the key") {
  google::protobuf::Value nested;
  (*nested.mutable_struct_value()->mutable_fields())["city"].set_string_value("Berlin");
  google::protobuf::Value list;
  list.mutable_list_value()->add_values()->set_number_value(1);
  google::protobuf::Value null;
  null.set_null_value(google::protobuf::NULL_VALUE);
  for (const auto& value : {nested, list, null}) {
    const auto converted = ToRecord(RecordWithTrait("address", value));
    REQUIRE(std::holds_alternative<std::string>(converted));
    CHECK_THAT(std::get<std::string>(converted), Catch::Contains("\"address\""));
  }
}

TEST_CASE("A person maps with its timestamps and the id it was redirected from") {
  Person person;
  person.id = 7;
  person.identifiers = {{"email", "a@b.c"}};
  person.traits = {{"plan", std::string("pro")}, {"seats", 2.0}};
  person.created_at = FromMicros(1767323045123456);  // 2026-01-02T03:04:05.123456Z
  person.updated_at = FromMicros(1767323046000000);
  person.redirected_from = 3;
  v1::Person out;
  FillPerson(person, out);
  CHECK(out.person_id() == 7);
  CHECK(out.identifiers(0).type() == "email");
  CHECK(out.traits().fields().at("plan").string_value() == "pro");
  CHECK(out.created_at().seconds() == 1767323045);
  CHECK(out.created_at().nanos() == 123456000);
  CHECK(out.has_redirected_from());
  CHECK(out.redirected_from() == 3);
}

TEST_CASE(
    "An upsert result maps outcome, merges, rejections (repaired to UTF-8) and generic values") {
  UpsertResult result;
  result.person_id = 9;
  result.outcome = Outcome::kMerged;
  result.score = 1.4;
  result.merged_person_ids = {10, 11};
  result.rejected = {{"phone", "12\xff", "not a possible phone number"}};
  result.generic = {{"email", "info@agency.example"}};
  v1::UpsertResponse out;
  FillUpsertResult(result, out);
  REQUIRE(out.generic_size() == 1);
  CHECK(out.generic(0).value() == "info@agency.example");
  CHECK(out.outcome() == v1::OUTCOME_MERGED);
  CHECK(out.merged_person_ids_size() == 2);
  CHECK(out.rejected(0).value() == "12\xEF\xBF\xBD");
  CHECK(out.rejected(0).reason() == "not a possible phone number");
}

TEST_CASE("A change maps both ways, every kind, its other id only when set") {
  for (ChangeKind kind : {ChangeKind::kCreated, ChangeKind::kUpdated, ChangeKind::kMerged,
                          ChangeKind::kSplit, ChangeKind::kErased}) {
    Change change;
    change.position = 41;
    change.person_id = 7;
    change.kind = kind;
    if (kind == ChangeKind::kMerged) change.other_id = 3;
    change.changed_at = FromMicros(1767323045120000);
    v1::Change out;
    FillChange(change, out);
    CHECK(out.has_other_id() == change.other_id.has_value());
    const auto back = ToChange(out);
    REQUIRE(std::holds_alternative<Change>(back));
    const Change& c = std::get<Change>(back);
    CHECK(c.position == 41);
    CHECK(c.person_id == 7);
    CHECK(c.kind == kind);
    CHECK(c.other_id == change.other_id);
    CHECK(c.changed_at == change.changed_at);
  }
  v1::Change unknown;
  unknown.set_kind(static_cast<v1::ChangeKind>(99));
  CHECK(std::holds_alternative<std::string>(ToChange(unknown)));
  CHECK(std::holds_alternative<std::string>(ToChange(v1::Change())));  // unspecified
}

TEST_CASE("A client's record survives the binary request body unchanged") {
  Record record;
  record.identifiers = {{"email", "A@Example.org"}, {"phone", "+49 30 1234567"}};
  record.traits = {{"plan", std::string("pro")}, {"seats", 3.5}, {"active", false}};
  record.default_region = "DE";
  record.source = "crm";
  v1::UpsertRequest request;
  REQUIRE(request.ParseFromString(client::UpsertRequestProto(record)));
  const auto back = ToRecord(request.record());
  REQUIRE(std::holds_alternative<Record>(back));
  const auto& r = std::get<Record>(back);
  REQUIRE(r.identifiers.size() == 2);
  CHECK(r.identifiers[1].type == "phone");
  CHECK(r.identifiers[1].value == "+49 30 1234567");
  CHECK(r.traits == record.traits);
  CHECK(r.default_region == "DE");
  CHECK(r.source == "crm");
}

}  // namespace
}  // namespace idres::api
