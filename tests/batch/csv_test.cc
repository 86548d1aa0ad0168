#include "batch/csv.h"

#include <catch2/catch.hpp>

#include <sstream>

namespace idres::batch {
namespace {

CsvFields Split(std::string_view text) {
  auto result = SplitCsvRecord(text);
  REQUIRE(std::holds_alternative<CsvFields>(result));
  return std::get<CsvFields>(result);
}

std::string SplitError(std::string_view text) {
  auto result = SplitCsvRecord(text);
  REQUIRE(std::holds_alternative<std::string>(result));
  return std::get<std::string>(result);
}

TEST_CASE("plain fields split on commas, empty fields kept", "[csv]") {
  CHECK(Split("a,b,,d") == CsvFields{"a", "b", "", "d"});
  CHECK(Split("") == CsvFields{""});
  CHECK(Split("a,") == CsvFields{"a", ""});
}

TEST_CASE("unquoted fields are trimmed, as febrl writes ', value'", "[csv]") {
  CHECK(Split("rec-1-org, mitchell, green") == CsvFields{"rec-1-org", "mitchell", "green"});
}

TEST_CASE("quoted fields keep commas, doubled quotes and newlines", "[csv]") {
  CHECK(Split(R"("Smith, Anna","say ""hi""")") == CsvFields{"Smith, Anna", R"(say "hi")"});
  CHECK(Split("\"two\nlines\",x") == CsvFields{"two\nlines", "x"});
  CHECK(Split(R"( "  spaced  " ,b)") == CsvFields{"  spaced  ", "b"});
}

TEST_CASE("malformed records come back with a reason", "[csv]") {
  CHECK(SplitError(R"("open,b)") == "unterminated quoted field");
  CHECK(SplitError(R"("a"b,c)") == "text after a closing quote in field 1");
  CHECK(SplitError(R"(a,b"c)") == "quote inside an unquoted field 2");
}

TEST_CASE("records are read across quoted newlines with exact byte offsets", "[csv]") {
  std::istringstream in("h1,h2\r\n\"multi\nline\",2\nlast,3");
  std::string text;
  std::uint64_t offset = 0, lines = 0;
  REQUIRE(ReadCsvRecordText(in, &text, &offset, &lines));
  CHECK(text == "h1,h2");
  CHECK(offset == 7);
  CHECK(lines == 1);
  REQUIRE(ReadCsvRecordText(in, &text, &offset, &lines));
  CHECK(text == "\"multi\nline\",2");
  CHECK(offset == 22);
  CHECK(lines == 2);
  REQUIRE(ReadCsvRecordText(in, &text, &offset, &lines));
  CHECK(text == "last,3");
  CHECK(offset == 28);  // no newline at the end of the input
  CHECK_FALSE(ReadCsvRecordText(in, &text, &offset, &lines));
}

TEST_CASE("a quote inside an unquoted field costs that row alone", "[csv]") {
  std::istringstream in("r4@x.com,O\"Brien D,z\nr5@x.com,\"Eve, E\",y\nr6@x.com,Fay F,y\n");
  std::string text;
  std::uint64_t offset = 0, lines = 0;
  REQUIRE(ReadCsvRecordText(in, &text, &offset, &lines));
  CHECK(text == "r4@x.com,O\"Brien D,z");
  CHECK(SplitError(text) == "quote inside an unquoted field 2");
  REQUIRE(ReadCsvRecordText(in, &text, &offset, &lines));
  CHECK(Split(text) == CsvFields{"r5@x.com", "Eve, E", "y"});
  REQUIRE(ReadCsvRecordText(in, &text, &offset, &lines));
  CHECK(Split(text) == CsvFields{"r6@x.com", "Fay F", "y"});
  CHECK_FALSE(ReadCsvRecordText(in, &text, &offset, &lines));
}

}  // namespace
}  // namespace idres::batch
