#include "normalize/opaque.h"

#include <catch2/catch.hpp>

#include <string>

using idres::NormalizeOpaque;

TEST_CASE("opaque ids: trimmed, NFC, case kept", "[normalize][opaque]") {
  const std::pair<std::string, std::string> golden[] = {
      {"7f3a-ABC", "7f3a-ABC"},
      {"  7f3a-ABC \t", "7f3a-ABC"},
      {"a b", "a b"},
      {"Cafe\u0301", "Caf\u00e9"},                   // NFC composes
      {"\uFF21\uFF22\uFF23", "\uFF21\uFF22\uFF23"},  // NFC, not NFKC: full-width kept
      {std::string(256, 'x'), std::string(256, 'x')},
  };
  for (const auto& [input, expected] : golden) {
    const auto result = NormalizeOpaque(input);
    INFO(input << " " << result.reason);
    REQUIRE(result.ok());
    CHECK(result.value == expected);
  }
}

TEST_CASE("opaque ids: invisible format characters are not part of the id", "[normalize][opaque]") {
  CHECK(NormalizeOpaque("\ufeffabc-123").value == "abc-123");
  CHECK(NormalizeOpaque("abc\u200b-123").value == "abc-123");
  CHECK(NormalizeOpaque("\u202ec\u00f6\u202c").value == "c\u00f6");
}

TEST_CASE("opaque ids: rejections", "[normalize][opaque]") {
  const std::pair<std::string, std::string> rejected[] = {
      {"", "the id is empty"},
      {" \u3000 ", "the id is empty"},
      // Only invisible format characters (zero-width space, byte order mark).
      {"\u200b", "the id is empty"},
      {"\ufeff \u200d", "the id is empty"},
      {std::string(257, 'x'), "the id is longer than 256 bytes"},
      {"a\tb", "the id contains a control character"},
      {"a\u0085b", "the id contains a control character"},
  };
  for (const auto& [input, reason] : rejected) {
    const auto result = NormalizeOpaque(input);
    INFO(input);
    CHECK_FALSE(result.ok());
    CHECK(result.reason == reason);
  }
}
