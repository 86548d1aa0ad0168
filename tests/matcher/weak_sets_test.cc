#include "matcher/weak_sets.h"

#include <catch2/catch.hpp>

namespace idres {
namespace {

using Sets = std::vector<std::vector<std::string>>;

TEST_CASE("defaults have exactly one minimal weak set", "[matcher]") {
  CHECK(MinimalWeakSets(MatchConfig::Defaults()) == Sets{{"birth_date", "name", "postal_code"}});
}

TEST_CASE("minimal weak sets leave out supersets and strong types", "[matcher]") {
  MatchConfig config;
  config.threshold = 1.0;
  config.types = {{"a", {0.5, false}}, {"b", {0.5, false}}, {"c", {0.6, false}},
                  {"d", {0.1, false}}, {"s", {1.0, true}},  {"z", {0.0, false}}};
  // a+b, a+c, b+c reach 1.0; a+b+d is a superset of a+b; d+... never minimal
  // unless needed: c+d = 0.7, a+d = 0.6 do not reach.
  CHECK(MinimalWeakSets(config) == Sets{{"a", "b"}, {"a", "c"}, {"b", "c"}});
}

TEST_CASE("sums that equal the threshold only up to rounding still reach it", "[matcher]") {
  CHECK(ReachesThreshold(0.4 + 0.3 + 0.3, 1.0));
  CHECK(ReachesThreshold(0.1 + 0.2 + 0.7, 1.0));
  CHECK_FALSE(ReachesThreshold(0.99, 1.0));
  MatchConfig config;
  config.types = {{"x", {0.1, false}}, {"y", {0.2, false}}, {"w", {0.7, false}}};
  CHECK(MinimalWeakSets(config) == Sets{{"w", "x", "y"}});
}

TEST_CASE("IsStrong: weight alone reaches the threshold", "[matcher]") {
  const MatchConfig config = MatchConfig::Defaults();
  CHECK(IsStrong(config, "email"));
  CHECK_FALSE(IsStrong(config, "name"));
  CHECK_FALSE(IsStrong(config, "unknown"));
}

}  // namespace
}  // namespace idres
