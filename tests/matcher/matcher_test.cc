#include "matcher/matcher.h"

#include <catch2/catch.hpp>

#include "tests/matcher/ids.h"

namespace idres {
namespace {

using testing::Ids;

TEST_CASE("score sums the weight of each type once", "[matcher]") {
  const Matcher matcher(MatchConfig::Defaults());
  const Candidate person{7, Ids({{"name", "anna"},
                                 {"name", "anna m"},
                                 {"birth_date", "1980-01-01"},
                                 {"postal_code", "10115"},
                                 {"email", "a@x.org"}})};
  CHECK(matcher.Score(Ids({{"name", "anna"}, {"name", "anna m"}}), person) == Approx(0.4));
  CHECK(matcher.Score(Ids({{"name", "anna"}, {"birth_date", "1980-01-01"}}), person) ==
        Approx(0.8));
  CHECK(matcher.Score(Ids({{"email", "a@x.org"}, {"name", "anna"}}), person) == Approx(1.4));
  CHECK(matcher.Score(Ids({{"email", "b@x.org"}}), person) == 0.0);
  CHECK(matcher.Score(Ids({{"shoe_size", "44"}}), Candidate{1, Ids({{"shoe_size", "44"}})}) == 0.0);
}

TEST_CASE("decide: matches at or above the threshold, survivor is the oldest", "[matcher]") {
  const Matcher matcher(MatchConfig::Defaults());
  const auto record = Ids({{"email", "a@x.org"}, {"phone", "+1555"}, {"name", "anna"}});
  const std::vector<Candidate> candidates = {
      {9, Ids({{"phone", "+1555"}})},
      {4, Ids({{"email", "a@x.org"}})},
      {6, Ids({{"name", "anna"}})},  // 0.4: not a match
  };
  const MatchDecision d = matcher.Decide(record, candidates);
  CHECK(d.matches == std::vector<std::int64_t>{4, 9});
  CHECK(d.survivor() == 4);
  CHECK(d.survivor_score() == Approx(1.0));
  CHECK(d.scores.at(6) == Approx(0.4));
  CHECK(d.held_elsewhere.empty());
}

TEST_CASE("decide: weak attributes reach the threshold only together", "[matcher]") {
  const Matcher matcher(MatchConfig::Defaults());
  const Candidate person{
      3, Ids({{"name", "anna"}, {"birth_date", "1980-01-01"}, {"postal_code", "10115"}})};
  const auto all = Ids({{"name", "anna"}, {"birth_date", "1980-01-01"}, {"postal_code", "10115"}});
  CHECK(matcher.Decide(all, std::vector{person}).matches == std::vector<std::int64_t>{3});
  const auto two = Ids({{"name", "anna"}, {"birth_date", "1980-01-01"}});
  CHECK(matcher.Decide(two, std::vector{person}).matches.empty());
}

TEST_CASE("decide: repeated rows of one person count once", "[matcher]") {
  const Matcher matcher(MatchConfig::Defaults());
  const std::vector<Candidate> rows = {{5, Ids({{"name", "anna"}})},
                                       {5, Ids({{"birth_date", "1980-01-01"}})},
                                       {5, Ids({{"postal_code", "10115"}})}};
  const auto record =
      Ids({{"name", "anna"}, {"birth_date", "1980-01-01"}, {"postal_code", "10115"}});
  const auto d = matcher.Decide(record, rows);
  CHECK(d.matches == std::vector<std::int64_t>{5});
  CHECK(d.scores.at(5) == Approx(1.1));
}

TEST_CASE("decide: a weak unique value held by a non-match is reported", "[matcher]") {
  MatchConfig config = MatchConfig::Defaults();
  config.types["loyalty_card"] = TypeRule{0.6, true};
  const Matcher matcher(config);
  const std::vector<Candidate> candidates = {{2, Ids({{"loyalty_card", "L1"}})},
                                             {8, Ids({{"email", "a@x.org"}})}};
  const auto d = matcher.Decide(Ids({{"email", "a@x.org"}, {"loyalty_card", "L1"}}), candidates);
  CHECK(d.matches == std::vector<std::int64_t>{8});
  CHECK(d.held_elsewhere == Ids({{"loyalty_card", "L1"}}));
  CHECK(matcher.Decide(Ids({{"email", "b@x.org"}}), candidates).held_elsewhere.empty());
}

TEST_CASE("decide: no candidates, no match", "[matcher]") {
  const Matcher matcher(MatchConfig::Defaults());
  const auto d = matcher.Decide(Ids({{"email", "a@x.org"}}), {});
  CHECK(d.matches.empty());
  CHECK_FALSE(d.survivor());
  CHECK(d.survivor_score() == 0.0);
}

}  // namespace
}  // namespace idres
