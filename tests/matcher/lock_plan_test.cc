#include "matcher/lock_plan.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "tests/matcher/ids.h"

#include "normalize/lock_key.h"

namespace idres {
namespace {

using testing::Ids;

bool Sorted(const std::vector<std::int64_t>& v) {
  return std::adjacent_find(v.begin(), v.end(), std::greater_equal<>()) == v.end();
}

TEST_CASE("strong values are locked alone, sorted and deduplicated", "[matcher]") {
  const LockPlanner planner(MatchConfig::Defaults());
  const auto plan = planner.Plan(Ids(
      {{"phone", "+491701234567"}, {"email", "anna@example.com"}, {"email", "anna@example.com"}}));
  REQUIRE_FALSE(plan.error);
  std::vector<std::int64_t> expected = {LockKey("email", "anna@example.com"),
                                        LockKey("phone", "+491701234567")};
  std::sort(expected.begin(), expected.end());
  CHECK(plan.lock_keys == expected);
  CHECK(plan.match_keys.empty());
  CHECK(plan.lookups == Ids({{"email", "anna@example.com"}, {"phone", "+491701234567"}}));
}

TEST_CASE("weak values are locked only as the minimal combination", "[matcher]") {
  const LockPlanner planner(MatchConfig::Defaults());
  const auto ids =
      Ids({{"name", "anna meier"}, {"birth_date", "1980-01-01"}, {"postal_code", "10115"}});
  const auto plan = planner.Plan(ids);
  REQUIRE_FALSE(plan.error);
  const std::int64_t composite = CompositeLockKey(ids);
  CHECK(plan.lock_keys == std::vector<std::int64_t>{composite});
  CHECK(plan.match_keys == std::vector<std::int64_t>{composite});
  CHECK(plan.lookups.empty());
  // The key does not depend on the order the parts arrive in.
  const auto reversed =
      Ids({{"postal_code", "10115"}, {"birth_date", "1980-01-01"}, {"name", "anna meier"}});
  CHECK(planner.Plan(reversed).lock_keys == plan.lock_keys);
}

TEST_CASE("a record sharing only a postal code or a birth date shares no key", "[matcher]") {
  const LockPlanner planner(MatchConfig::Defaults());
  const auto a =
      planner.Plan(Ids({{"name", "anna"}, {"birth_date", "1980-01-01"}, {"postal_code", "10115"}}));
  const auto b =
      planner.Plan(Ids({{"name", "bert"}, {"birth_date", "1975-05-05"}, {"postal_code", "10115"}}));
  const auto c =
      planner.Plan(Ids({{"name", "carl"}, {"birth_date", "1980-01-01"}, {"postal_code", "80331"}}));
  const auto d = planner.Plan(Ids({{"postal_code", "10115"}}));
  CHECK(d.lock_keys.empty());
  for (const auto* other : {&b, &c}) {
    std::vector<std::int64_t> shared;
    std::set_intersection(a.lock_keys.begin(), a.lock_keys.end(), other->lock_keys.begin(),
                          other->lock_keys.end(), std::back_inserter(shared));
    CHECK(shared.empty());
  }
}

TEST_CASE("several weak values per type give the cartesian product", "[matcher]") {
  const LockPlanner planner(MatchConfig::Defaults());
  const auto plan = planner.Plan(Ids({{"name", "anna"},
                                      {"name", "anna m"},
                                      {"birth_date", "1980-01-01"},
                                      {"postal_code", "10115"},
                                      {"postal_code", "10117"},
                                      {"email", "a@x.org"}}));
  REQUIRE_FALSE(plan.error);
  CHECK(plan.match_keys.size() == 4);
  CHECK(plan.lock_keys.size() == 5);
  CHECK(Sorted(plan.lock_keys));
  const std::vector<Identifier> one =
      Ids({{"name", "anna m"}, {"birth_date", "1980-01-01"}, {"postal_code", "10117"}});
  CHECK(std::binary_search(plan.match_keys.begin(), plan.match_keys.end(), CompositeLockKey(one)));
}

TEST_CASE("too many weak combinations reject the record", "[matcher]") {
  const LockPlanner planner(MatchConfig::Defaults(), 8);
  std::vector<Identifier> ids;
  for (int i = 0; i < 3; ++i) {
    ids.push_back({"name", "n" + std::to_string(i)});
    ids.push_back({"birth_date", "2000-01-0" + std::to_string(i + 1)});
    ids.push_back({"postal_code", "1000" + std::to_string(i)});
  }
  const auto plan = planner.Plan(ids);  // 27 > 8
  REQUIRE(plan.error);
  CHECK_THAT(*plan.error, Catch::Contains("too many"));
  ids.resize(6);  // 2 x 2 x 2 = 8: allowed
  CHECK_FALSE(planner.Plan(ids).error);
}

TEST_CASE("a unique weak type is locked alone as well as in combinations", "[matcher]") {
  MatchConfig config = MatchConfig::Defaults();
  config.types["loyalty_card"] = TypeRule{0.6, true};
  const LockPlanner planner(config);
  const auto plan = planner.Plan(Ids({{"loyalty_card", "L1"}, {"name", "anna"}}));
  REQUIRE_FALSE(plan.error);
  // loyalty_card + name = 1.0 is minimal.
  const auto both = Ids({{"loyalty_card", "L1"}, {"name", "anna"}});
  CHECK(plan.match_keys == std::vector<std::int64_t>{CompositeLockKey(both)});
  CHECK(std::binary_search(plan.lock_keys.begin(), plan.lock_keys.end(),
                           LockKey("loyalty_card", "L1")));
  CHECK(plan.lookups == Ids({{"loyalty_card", "L1"}}));
}

TEST_CASE("unconfigured types take no part in locking", "[matcher]") {
  const LockPlanner planner(MatchConfig::Defaults());
  CHECK(planner.Plan(Ids({{"shoe_size", "44"}})).lock_keys.empty());
}

TEST_CASE("a person's match keys cover all its weak values, capped", "[matcher]") {
  const LockPlanner planner(MatchConfig::Defaults());
  const auto ids = Ids({{"name", "a"},
                        {"name", "b"},
                        {"birth_date", "2000-01-01"},
                        {"postal_code", "1"},
                        {"email", "x@y.z"}});
  bool truncated = true;
  CHECK(planner.MatchKeys(ids, 100, &truncated).size() == 2);
  CHECK_FALSE(truncated);
  CHECK(planner.MatchKeys(ids, 1, &truncated).size() == 1);
  CHECK(truncated);
  // The record's match keys are a subset of the person's once it holds them.
  const auto record = Ids({{"name", "b"}, {"birth_date", "2000-01-01"}, {"postal_code", "1"}});
  const auto person_keys = planner.MatchKeys(ids, 100, nullptr);
  for (auto k : planner.Plan(record).match_keys) {
    CHECK(std::binary_search(person_keys.begin(), person_keys.end(), k));
  }
}

}  // namespace
}  // namespace idres
