#include "api/service/auth.h"

#include <catch2/catch.hpp>

namespace idres::api {
namespace {

TEST_CASE("The bearer token is what follows the Bearer scheme, in any case") {
  CHECK(BearerToken("Bearer s3cret") == "s3cret");
  CHECK(BearerToken("bearer s3cret") == "s3cret");  // the scheme is case-insensitive
  CHECK(BearerToken("Bearer S3CRET") == "S3CRET");   // the token is not
  CHECK_FALSE(BearerToken("Basic s3cret"));
  CHECK_FALSE(BearerToken("s3cret"));
  CHECK_FALSE(BearerToken(""));
}

TEST_CASE("A token is known by its SHA-256, as 64 hex digits") {
  // sha256("test"), the digest of the README's example.
  const TokenDigest digest = DigestOf("test");
  CHECK(HexOf(digest) == "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
  CHECK(DigestFromHex(HexOf(digest)) == digest);
  CHECK(DigestFromHex("9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08") ==
        digest);
  CHECK_FALSE(DigestFromHex("9f86"));
  CHECK_FALSE(DigestFromHex(std::string(64, 'g')));
}

}  // namespace
}  // namespace idres::api
