#include "matcher/match_config.h"

#include <catch2/catch.hpp>

namespace idres {
namespace {

TEST_CASE("MatchConfig defaults follow the issue's table", "[matcher]") {
  const MatchConfig config = MatchConfig::Defaults();
  for (const char* strong : {"email", "phone", "cookie", "device_id", "customer_id"}) {
    const TypeRule* rule = config.Find(strong);
    REQUIRE(rule != nullptr);
    CHECK(rule->weight == 1.0);
    CHECK(rule->unique);
  }
  CHECK(config.Find("name")->weight == 0.4);
  CHECK_FALSE(config.Find("name")->unique);
  CHECK(config.Find("birth_date")->weight == 0.4);
  CHECK(config.Find("postal_code")->weight == 0.3);
  CHECK(config.threshold == 1.0);
  CHECK(config.Find("shoe_size") == nullptr);
}

}  // namespace
}  // namespace idres
