#include "normalize/postal_code.h"

#include <catch2/catch.hpp>

#include <string>

using idres::NormalizePostalCode;

TEST_CASE("postal code golden table", "[normalize][postal_code]") {
  const std::pair<const char*, const char*> golden[] = {
      {"sw1a 1aa", "SW1A1AA"},
      {"SW1A-1AA", "SW1A1AA"},
      {" SW1A1AA ", "SW1A1AA"},
      {"ｓｗ１ａ\u3000１ａａ", "SW1A1AA"},  // full-width, ideographic space
      {"123\u20104567", "1234567"},         // U+2010 hyphen
      {"12345\u22126789", "123456789"},     // U+2212 minus sign
      {"h3z 2y7", "H3Z2Y7"},
      {"straße 1", "STRASSE1"},  // full upper case
      // Found by fuzz_normalize_postal_code: removing the space joins A and U+030A.
      {"A \u030A1", "\u00C51"},
      {"1\u00A82", "1\u03082"},  // NFKC makes " \u0308"; the space goes, the mark stays
  };
  for (const auto& [input, expected] : golden) {
    const auto result = NormalizePostalCode(input);
    INFO(input << " " << result.reason);
    REQUIRE(result.ok());
    CHECK(result.value == expected);
  }
}

TEST_CASE("postal code rejections", "[normalize][postal_code]") {
  for (const char* input : {"", " - ", "\u2014\u3000"}) {
    const auto result = NormalizePostalCode(input);
    INFO(input);
    CHECK_FALSE(result.ok());
    CHECK(result.reason == "the postal code is empty");
  }
}
