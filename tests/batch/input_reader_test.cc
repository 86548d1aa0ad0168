#include "batch/input_reader.h"

#include <catch2/catch.hpp>

#include "tests/support/temp_dir.h"

namespace idres::batch {
namespace {

std::unique_ptr<InputReader> OpenOk(const std::string& path, const CsvMapping& mapping = {},
                                    std::uint64_t offset = 0) {
  auto reader = InputReader::Open(path, InputFormat::kAuto, mapping, offset);
  if (auto* error = std::get_if<std::string>(&reader)) FAIL(*error);
  return std::move(std::get<std::unique_ptr<InputReader>>(reader));
}

TEST_CASE("the format follows the extension unless one is asked for", "[input_reader]") {
  CHECK(FormatOf("a/b.csv", InputFormat::kAuto) == InputFormat::kCsv);
  CHECK(FormatOf("a/b.ndjson", InputFormat::kAuto) == InputFormat::kNdjson);
  CHECK(FormatOf("a/b.csv", InputFormat::kNdjson) == InputFormat::kNdjson);
}

TEST_CASE("NDJSON: blank lines skipped, bad lines handed out with reasons", "[input_reader]") {
  testing::TempDir dir;
  std::string path = dir.Write("in.ndjson",
                               "{\"identifiers\":[{\"type\":\"email\",\"value\":\"a@x.org\"}]}\n"
                               "\n"
                               "oops\n"
                               "{}");
  auto reader = OpenOk(path);
  InputRecord r;
  REQUIRE(reader->Next(&r));
  CHECK(r.line == 1);
  CHECK(std::holds_alternative<Record>(r.parsed));
  REQUIRE(reader->Next(&r));
  CHECK(r.line == 3);
  CHECK(r.raw == "oops");
  CHECK(std::get<std::string>(r.parsed) == "not valid JSON");
  std::uint64_t after_oops = r.end_offset;
  REQUIRE(reader->Next(&r));
  CHECK(r.line == 4);
  CHECK_FALSE(reader->Next(&r));
  CHECK(CountRecords(path, InputFormat::kAuto) == 3u);

  // Resuming at a record boundary continues with the next record and the
  // right line number.
  auto resumed = OpenOk(path, {}, after_oops);
  REQUIRE(resumed->Next(&r));
  CHECK(r.line == 4);
  CHECK(r.raw == "{}");
}

TEST_CASE("CSV: header bound once, rows mapped, offsets resume after the header",
          "[input_reader]") {
  testing::TempDir dir;
  std::string path = dir.Write("in.csv",
                               "id, email, note\n"
                               "1, a@x.org, \"multi\nline\"\n"
                               "2, b@x.org\n"
                               "3, c@x.org, ok\n");
  CsvMapping mapping;
  REQUIRE_FALSE(mapping.AddIdentifier("email=email"));
  REQUIRE_FALSE(mapping.AddTrait("note=note"));
  auto reader = OpenOk(path, mapping);
  InputRecord r;
  REQUIRE(reader->Next(&r));
  CHECK(r.line == 2);
  CHECK(std::get<std::string>(std::get<Record>(r.parsed).traits.at("note")) == "multi\nline");
  REQUIRE(reader->Next(&r));
  CHECK(r.line == 4);
  CHECK(std::get<std::string>(r.parsed) == "expected 3 fields as in the header, found 2");
  std::uint64_t offset = r.end_offset;
  CHECK(CountRecords(path, InputFormat::kAuto) == 3u);

  auto resumed = OpenOk(path, mapping, offset);
  REQUIRE(resumed->Next(&r));
  CHECK(r.line == 5);
  CHECK(std::get<Record>(r.parsed).identifiers.at(0).value == "c@x.org");
}

TEST_CASE("a UTF-8 byte order mark is not part of the first record or column", "[input_reader]") {
  testing::TempDir dir;
  CsvMapping mapping;
  REQUIRE_FALSE(mapping.AddIdentifier("email=email"));
  InputRecord r;
  auto csv = OpenOk(dir.Write("in.csv",
                              "\xEF\xBB\xBF"
                              "email\r\na@x.org\r\n"),
                    mapping, 0);
  REQUIRE(csv->Next(&r));
  CHECK(std::get<Record>(r.parsed).identifiers.at(0).value == "a@x.org");
  auto ndjson = OpenOk(dir.Write("in.ndjson",
                                 "\xEF\xBB\xBF"
                                 R"({"identifiers":[]})"
                                 "\n"),
                       {}, 0);
  REQUIRE(ndjson->Next(&r));
  CHECK(std::holds_alternative<Record>(r.parsed));
  CHECK(r.end_offset == 22);
}

TEST_CASE("CSV without a mapping or with a missing column cannot be opened", "[input_reader]") {
  testing::TempDir dir;
  std::string path = dir.Write("in.csv", "a,b\n1,2\n");
  auto none = InputReader::Open(path, InputFormat::kAuto, {});
  CHECK(std::get<std::string>(none) == path + ": a CSV input needs --map, --trait or --mapping");
  CsvMapping mapping;
  REQUIRE_FALSE(mapping.AddIdentifier("email=EMAIL"));
  auto missing = InputReader::Open(path, InputFormat::kAuto, mapping);
  CHECK(std::get<std::string>(missing) == path + ": no column \"EMAIL\" in the header");
  auto absent = InputReader::Open(dir.File("nope.csv"), InputFormat::kAuto, mapping);
  CHECK(std::get<std::string>(absent) == "cannot open " + dir.File("nope.csv"));
}

}  // namespace
}  // namespace idres::batch
