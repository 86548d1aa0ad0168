#include "batch/csv_mapping.h"

#include <catch2/catch.hpp>

#include "tests/support/temp_dir.h"

namespace idres::batch {
namespace {

const CsvFields kHeader = {"unique_id", "first_name", "surname", "dob", "email"};

BoundMapping BindOk(const CsvMapping& mapping) {
  auto bound = BoundMapping::Bind(mapping, kHeader);
  REQUIRE(std::holds_alternative<BoundMapping>(bound));
  return std::get<BoundMapping>(bound);
}

TEST_CASE("map and trait specs become identifiers and traits", "[csv_mapping]") {
  CsvMapping mapping;
  REQUIRE_FALSE(mapping.AddIdentifier("email=email"));
  REQUIRE_FALSE(mapping.AddIdentifier("name = first_name + surname"));
  REQUIRE_FALSE(mapping.AddIdentifier("birth_date=dob"));
  REQUIRE_FALSE(mapping.AddTrait("first_name=first_name"));
  auto record = BindOk(mapping).ToRecord({"7", "Anna", "Smith", "1971-06-24", "a@x.org"});
  REQUIRE(std::holds_alternative<Record>(record));
  const Record& r = std::get<Record>(record);
  REQUIRE(r.identifiers.size() == 3);
  CHECK(r.identifiers[0].type == "email");
  CHECK(r.identifiers[0].value == "a@x.org");
  CHECK(r.identifiers[1].type == "name");
  CHECK(r.identifiers[1].value == "Anna Smith");
  CHECK(r.identifiers[2].value == "1971-06-24");
  CHECK(std::get<std::string>(r.traits.at("first_name")) == "Anna");
}

TEST_CASE("the record id column names each row's record", "[csv_mapping]") {
  CsvMapping mapping;
  REQUIRE_FALSE(mapping.AddIdentifier("email=email"));
  REQUIRE_FALSE(mapping.SetRecordId("unique_id"));
  CHECK(mapping.SetRecordId("email") == "the record id column is given twice");
  auto record = BindOk(mapping).ToRecord({"7", "Anna", "Smith", "1971-06-24", "a@x.org"});
  CHECK(std::get<Record>(record).record_id == "7");
  CsvMapping missing;
  REQUIRE_FALSE(missing.SetRecordId("id"));
  CHECK(std::get<std::string>(BoundMapping::Bind(missing, kHeader)) ==
        "no column \"id\" in the header");
}

TEST_CASE("empty cells are left out, joined columns skip empty parts", "[csv_mapping]") {
  CsvMapping mapping;
  REQUIRE_FALSE(mapping.AddIdentifier("email=email"));
  REQUIRE_FALSE(mapping.AddIdentifier("name=first_name+surname"));
  REQUIRE_FALSE(mapping.AddTrait("dob=dob"));
  auto record = BindOk(mapping).ToRecord({"7", "", "Smith", "", ""});
  const Record& r = std::get<Record>(record);
  REQUIRE(r.identifiers.size() == 1);
  CHECK(r.identifiers[0].value == "Smith");
  CHECK(r.traits.empty());
}

TEST_CASE("a row with the wrong width is refused with a reason", "[csv_mapping]") {
  CsvMapping mapping;
  REQUIRE_FALSE(mapping.AddIdentifier("email=email"));
  auto record = BindOk(mapping).ToRecord({"7", "Anna"});
  REQUIRE(std::holds_alternative<std::string>(record));
  CHECK(std::get<std::string>(record) == "expected 5 fields as in the header, found 2");
}

TEST_CASE("bad specs and unknown columns are configuration errors", "[csv_mapping]") {
  CsvMapping mapping;
  CHECK(mapping.AddIdentifier("email").value() == "mapping \"email\" is not NAME=COLUMN");
  CHECK(mapping.AddIdentifier("=email").value() == "mapping \"=email\" has no name");
  CHECK(mapping.AddIdentifier("name=a+").value() == "mapping \"name=a+\" names an empty column");
  REQUIRE_FALSE(mapping.AddIdentifier("phone=PHONE_NUMBER"));
  auto bound = BoundMapping::Bind(mapping, kHeader);
  REQUIRE(std::holds_alternative<std::string>(bound));
  CHECK(std::get<std::string>(bound) == "no column \"PHONE_NUMBER\" in the header");
  CHECK(std::get<std::string>(BoundMapping::Bind(mapping, {"a", "a"})) ==
        "the header names column \"a\" twice");
}

TEST_CASE("a mapping file holds map and trait lines", "[csv_mapping]") {
  testing::TempDir dir;
  std::string path = dir.Write("m.txt",
                               "# splink\n"
                               "map email=email\n"
                               "\n"
                               "  trait city = dob\n");
  CsvMapping mapping;
  REQUIRE_FALSE(mapping.AddFile(path));
  REQUIRE(mapping.identifiers.size() == 1);
  REQUIRE(mapping.traits.size() == 1);
  CHECK(mapping.traits[0].name == "city");

  std::string bad = dir.Write("bad.txt", "map email=email\nwhat x=y\n");
  CHECK(CsvMapping().AddFile(bad).value() ==
        bad + ":2: expected \"map TYPE=COLUMN\" or \"trait NAME=COLUMN\"");
  CHECK(CsvMapping().AddFile(dir.File("missing")).value() ==
        "cannot open mapping file " + dir.File("missing"));
  // A directory opens, and would read as an empty mapping.
  CHECK(CsvMapping().AddFile(dir.File("")).value().find("is a directory") != std::string::npos);
}

}  // namespace
}  // namespace idres::batch
