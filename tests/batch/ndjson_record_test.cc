#include "batch/ndjson_record.h"

#include <catch2/catch.hpp>

namespace idres::batch {
namespace {

std::string Reason(std::string_view line) {
  auto result = ParseNdjsonRecord(line);
  REQUIRE(std::holds_alternative<std::string>(result));
  return std::get<std::string>(result);
}

TEST_CASE("an NDJSON line in the Upsert record's shape", "[ndjson]") {
  auto result = ParseNdjsonRecord(
      R"({"identifiers":[{"type":"email","value":"A@x.org"},{"type":"phone","value":"0170 1234567"}],)"
      R"("traits":{"tier":"gold","age":42,"vip":true},"defaultRegion":"DE","source":"crm",)"
      R"("recordId":"c-7"})");
  REQUIRE(std::holds_alternative<Record>(result));
  const Record& r = std::get<Record>(result);
  REQUIRE(r.identifiers.size() == 2);
  CHECK(r.identifiers[1].type == "phone");
  CHECK(r.identifiers[1].value == "0170 1234567");
  CHECK(std::get<std::string>(r.traits.at("tier")) == "gold");
  CHECK(std::get<double>(r.traits.at("age")) == 42.0);
  CHECK(std::get<bool>(r.traits.at("vip")));
  CHECK(r.default_region == "DE");
  CHECK(r.source == "crm");
  CHECK(r.record_id == "c-7");
}

TEST_CASE("snake_case default_region is accepted", "[ndjson]") {
  auto result = ParseNdjsonRecord(R"({"identifiers":[],"default_region":"FR"})");
  CHECK(std::get<Record>(result).default_region == "FR");
}

TEST_CASE("lines that are not records come back with a reason", "[ndjson]") {
  CHECK(Reason("{not json") == "not valid JSON");
  CHECK(Reason("[1,2]") == "not a JSON object");
  CHECK(Reason(R"({"identifiers":{}})") == "\"identifiers\" is not an array");
  CHECK(Reason(R"({"identifiers":[{"type":"email"}]})") ==
        "identifier \"email\" has no string \"value\"");
  CHECK(Reason(R"({"identifiers":[{"value":"x"}]})") == "an identifier has no string \"type\"");
  CHECK(Reason(R"({"identifiers":[{"type":"e","value":"x","extra":1}]})") ==
        "unknown identifier field \"extra\"");
  CHECK(Reason(R"({"traits":{"a":{"b":1}}})") == "trait \"a\" is not a string, number or boolean");
  CHECK(Reason(R"({"traits":{"a":null}})") == "trait \"a\" is not a string, number or boolean");
  CHECK(Reason(R"({"identifers":[]})") == "unknown field \"identifers\"");
  CHECK(Reason(R"({"source":3})") == "\"source\" is not a string");
}

TEST_CASE("a field given twice is refused, not resolved silently", "[ndjson]") {
  CHECK(Reason(R"({"identifiers":[{"type":"email","value":"a@x.org"}],)"
               R"("identifiers":[{"type":"email","value":"b@x.org"}]})") ==
        "field \"identifiers\" given twice");
  CHECK(Reason(R"({"identifiers":[{"type":"email","type":"phone","value":"1"}]})") ==
        "field \"type\" given twice");
  CHECK(Reason(R"({"traits":{"tier":"a","tier":"b"}})") == "field \"tier\" given twice");
  CHECK(Reason(R"({"identifiers":[],"defaultRegion":"DE","default_region":"US"})") ==
        "field \"defaultRegion\" given twice (also as \"default_region\")");
  // The same key in two different objects is no repeat.
  CHECK(std::get<Record>(ParseNdjsonRecord(R"({"identifiers":[{"type":"email","value":"a@x.org"},)"
                                           R"({"type":"email","value":"b@x.org"}]})"))
            .identifiers.size() == 2);
}

TEST_CASE("a number past a double's range is a bad line, not a crash", "[ndjson]") {
  CHECK(Reason(R"({"identifiers":[{"type":"email","value":"a@x.org"}],"traits":{"s":1e999}})") ==
        "not valid JSON");
}

TEST_CASE("a NUL byte does not end the line early", "[ndjson]") {
  using namespace std::string_literals;
  CHECK(Reason("{\"identifiers\":[]}\0{\"identifiers\":[]} garbage"s) ==
        "not valid JSON: a NUL byte");
}

TEST_CASE("invalid UTF-8 inside a JSON string is refused, not passed on", "[ndjson]") {
  CHECK(Reason("{\"source\":\"\xff\"}") == "not valid JSON");
}

}  // namespace
}  // namespace idres::batch
