#include "normalize/document.h"

#include <catch2/catch.hpp>

#include <string>

using idres::NormalizeDocument;

TEST_CASE("document golden table: separators and case do not count", "[normalize][document]") {
  const std::pair<const char*, const char*> golden[] = {
      {"x 1234-567", "X1234567"}, {"X1234567", "X1234567"},      {" 123-45-6789 ", "123456789"},
      {"ab.12/34", "AB1234"},     {"\uFF38\uFF11\uFF12", "X12"},  // full-width
      {"straße 7", "STRASSE7"},   {"é-12", "\u00C912"},
  };
  for (const auto& [input, expected] : golden) {
    const auto result = NormalizeDocument(input);
    INFO(input << ": " << result.reason);
    REQUIRE(result.ok());
    CHECK(result.value == expected);
    CHECK(NormalizeDocument(result.value).value == result.value);
  }
}

TEST_CASE("a document number needs a letter or a digit", "[normalize][document]") {
  CHECK(NormalizeDocument(" - / . ").reason == "the document number has no letter or digit");
  CHECK(NormalizeDocument("").reason == "the document number has no letter or digit");
}
