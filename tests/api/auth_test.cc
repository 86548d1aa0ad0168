#include "api/service/auth.h"

#include <catch2/catch.hpp>

namespace idres::api {
namespace {

TEST_CASE("Only the exact bearer token is accepted") {
  CHECK(BearerMatches("Bearer s3cret", "s3cret"));
  CHECK(BearerMatches("bearer s3cret", "s3cret"));  // the scheme is case-insensitive
  CHECK_FALSE(BearerMatches("Bearer s3cre", "s3cret"));
  CHECK_FALSE(BearerMatches("Bearer s3cret2", "s3cret"));
  CHECK_FALSE(BearerMatches("Bearer S3CRET", "s3cret"));
  CHECK_FALSE(BearerMatches("Basic s3cret", "s3cret"));
  CHECK_FALSE(BearerMatches("s3cret", "s3cret"));
  CHECK_FALSE(BearerMatches("", "s3cret"));
}

}  // namespace
}  // namespace idres::api
