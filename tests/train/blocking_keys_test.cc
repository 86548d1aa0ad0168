#include "train/blocking_keys.h"

#include <catch2/catch.hpp>
#include <set>
#include <utility>

namespace idres::train {
namespace {

using Pairs = std::set<std::pair<std::size_t, std::size_t>>;

Model TwoRules() {
  Model model = Model::Defaults();
  model.blocking = {{"date", {"birth_date.value"}}, {"city", {"city.value"}}};
  return model;
}

Pairs PairsOf(const BlockingKeys& keys, std::size_t rule, bool first_only, double keep = 1) {
  Pairs out;
  keys.ForEachPair(rule, first_only, keep, 1, [&](std::size_t a, std::size_t b) {
    REQUIRE(a < b);
    REQUIRE(out.insert({a, b}).second);  // never twice
  });
  return out;
}

TEST_CASE("a rule pairs the records sharing one of its keys, each pair once", "[train]") {
  const Model model = TwoRules();
  RecordTable table(model);
  table.Add(std::vector<Identifier>{{"birth_date", "1980-01-02"}, {"city", "berlin"}});
  table.Add(std::vector<Identifier>{{"birth_date", "1980-01-02"}, {"city", "berlin"}});
  table.Add(std::vector<Identifier>{{"birth_date", "1990-05-06"}, {"city", "berlin"}});
  // Two dates: two keys of the rule shared with record 0 and 1; one pair.
  table.Add(std::vector<Identifier>{{"birth_date", "1980-01-02"}, {"birth_date", "1990-05-06"}});
  const BlockingKeys keys(table, model);
  REQUIRE(keys.rules() == 2);
  CHECK(PairsOf(keys, 0, false) == Pairs{{0, 1}, {0, 3}, {1, 3}, {2, 3}});
  CHECK(keys.PairsBefore(0) == 4);
  CHECK(PairsOf(keys, 1, false) == Pairs{{0, 1}, {0, 2}, {1, 2}});
  // Over both rules each pair comes once: (0, 1) is the date rule's.
  CHECK(PairsOf(keys, 1, true) == Pairs{{0, 2}, {1, 2}});
}

TEST_CASE("a key held by more records than key_cap pairs no one", "[train]") {
  Model model = TwoRules();
  model.key_cap = 2;
  RecordTable table(model);
  for (int i = 0; i < 3; ++i) table.Add(std::vector<Identifier>{{"city", "berlin"}});
  table.Add(std::vector<Identifier>{{"city", "bonn"}});
  table.Add(std::vector<Identifier>{{"city", "bonn"}});
  const BlockingKeys keys(table, model);
  CHECK(PairsOf(keys, 1, false) == Pairs{{3, 4}});
}

TEST_CASE("a rule's pairs are sampled by the seed, the same each time", "[train]") {
  const Model model = TwoRules();
  RecordTable table(model);
  for (int i = 0; i < 60; ++i) table.Add(std::vector<Identifier>{{"city", "berlin"}});
  const BlockingKeys keys(table, model);
  const Pairs all = PairsOf(keys, 1, false), half = PairsOf(keys, 1, false, 0.5);
  CHECK(all.size() == 60 * 59 / 2);
  CHECK(half.size() > all.size() * 4 / 10);
  CHECK(half.size() < all.size() * 6 / 10);
  CHECK(PairsOf(keys, 1, false, 0.5) == half);
}

}  // namespace
}  // namespace idres::train
