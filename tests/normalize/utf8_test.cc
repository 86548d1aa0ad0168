#include "normalize/utf8.h"

#include <catch2/catch.hpp>

namespace idres {
namespace {

TEST_CASE("Valid UTF-8 passes, from ASCII to four-byte sequences") {
  CHECK_FALSE(FindInvalidUtf8("plain ascii"));
  CHECK_FALSE(FindInvalidUtf8("Müller 山田 \xF0\x9F\x98\x80"));
  CHECK_FALSE(FindInvalidUtf8(""));
}

TEST_CASE("Invalid UTF-8 is found at its first bad byte") {
  CHECK(FindInvalidUtf8("ab\xff") == 2u);
  CHECK(FindInvalidUtf8("\xC0\xAF") == 0u);          // overlong '/'
  CHECK(FindInvalidUtf8("x\xED\xA0\x80") == 1u);     // UTF-16 surrogate
  CHECK(FindInvalidUtf8("\xF4\x90\x80\x80") == 0u);  // above U+10FFFF
  CHECK(FindInvalidUtf8("\xE2\x82") == 0u);          // truncated sequence
}

TEST_CASE("ToValidUtf8 replaces each bad byte with U+FFFD and keeps the rest") {
  CHECK(ToValidUtf8("a\xffz") == "a\xEF\xBF\xBDz");
  CHECK(ToValidUtf8("é") == "é");
}

}  // namespace
}  // namespace idres
