#include "matcher/matcher.h"

#include <catch2/catch.hpp>

#include <cmath>

#include "tests/matcher/ids.h"

namespace idres {
namespace {

using testing::Ids;

const Matcher& Default() {
  static const Matcher matcher(Model::Defaults());
  return matcher;
}

// Whether a record holding `record` is the person holding `person`, alone.
bool Matches(std::vector<Identifier> record, std::vector<Identifier> person,
             const ValueCounts& counts = {}) {
  return !Default().Decide(record, {{Candidate{1, std::move(person)}}}, counts).matches.empty();
}

TEST_CASE("a shared strong value matches when nothing speaks against it", "[matcher]") {
  CHECK(Matches(Ids({{"email", "a@x.org"}}), Ids({{"email", "a@x.org"}, {"name", "anna"}})));
  CHECK(Matches(Ids({{"email", "a@x.org"}, {"phone", "+15550001"}}),
                Ids({{"email", "a@x.org"}, {"phone", "+15550002"}})));  // a group counts once
  CHECK_FALSE(Matches(Ids({{"email", "b@x.org"}}), Ids({{"email", "a@x.org"}})));
}

TEST_CASE("an office: a shared email against different names and birth dates", "[matcher]") {
  const auto person =
      Ids({{"email", "info@agency.example"}, {"name", "anna meier"}, {"birth_date", "1980-02-03"}});
  CHECK_FALSE(Matches(Ids({{"email", "info@agency.example"},
                           {"name", "peter novak"},
                           {"birth_date", "1975-09-30"}}),
                      person));
  // Held by 21 persons, past the cap of 5: generic, not compared at all.
  const ValueCounts counts = {{{"email", "info@agency.example"}, 21}};
  const MatchDecision d =
      Default().Decide(Ids({{"email", "info@agency.example"}}), {{Candidate{1, person}}}, counts);
  CHECK(d.matches.empty());
  CHECK(d.generic == Ids({{"email", "info@agency.example"}}));
}

TEST_CASE("an email alone does not merge the persons sharing it when they conflict", "[matcher]") {
  std::vector<Candidate> office;
  for (const auto& [id, born] :
       {std::pair{1, "1961-02-03"}, {2, "1975-06-07"}, {3, "1989-10-11"}}) {
    office.push_back({id, {{"email", "info@agency.example"}, {"birth_date", born}}});
  }
  const MatchDecision d = Default().Decide(Ids({{"email", "info@agency.example"}}), office,
                                           {{{"email", "info@agency.example"}, 3}});
  CHECK(d.conflict);
  CHECK(d.matches == std::vector<std::int64_t>{1});  // a tie goes to the oldest
}

TEST_CASE("a family shares contact values, not names and birth dates", "[matcher]") {
  const auto father = Ids({{"email", "doe@family.example"},
                           {"phone", "+15551230000"},
                           {"address", "12 main st 10115"},
                           {"name", "john doe"},
                           {"birth_date", "1970-01-01"}});
  CHECK_FALSE(Matches(Ids({{"email", "doe@family.example"},
                           {"phone", "+15551230000"},
                           {"address", "12 main st 10115"},
                           {"name", "jane doe"},
                           {"birth_date", "1972-03-04"}}),
                      father));
  CHECK(Matches(Ids({{"email", "doe@family.example"},
                     {"phone", "+15559999999"},
                     {"name", "john doe"},
                     {"birth_date", "1970-01-01"}}),
                father));
}

TEST_CASE("nicknames, swapped dates and typos are the same person", "[matcher]") {
  CHECK(Matches(
      Ids({{"name", "bob smith"}, {"birth_date", "1970-05-06"}, {"phone", "+15550001"}}),
      Ids({{"name", "robert smith"}, {"birth_date", "1970-05-06"}, {"phone", "+15550001"}})));
  CHECK(Matches(Ids({{"name", "anna meier"}, {"birth_date", "1978-11-12"}, {"email", "a@x.org"}}),
                Ids({{"name", "anna meier"}, {"birth_date", "1978-12-11"}, {"email", "a@x.org"}})));
  CHECK(Matches(Ids({{"name", "robert smith"},
                     {"birth_date", "1970-05-06"},
                     {"email", "roberta25@smith.net"}}),
                Ids({{"name", "robert smith"},
                     {"birth_date", "1970-05-06"},
                     {"email", "robert25@smith.net"}})));
  CHECK(Matches(
      Ids({{"name", "jon smyth"}, {"birth_date", "1978-04-01"}, {"postal_code", "10115"}}),
      Ids({{"name", "john smith"}, {"birth_date", "1978-04-01"}, {"postal_code", "10115"}})));
}

TEST_CASE("evidence against: another birth date, another passport", "[matcher]") {
  CHECK_FALSE(Matches(
      Ids({{"name", "robert smith"}, {"birth_date", "1978-02-02"}, {"address", "5 oak ave 10115"}}),
      Ids({{"name", "robert smith"},
           {"birth_date", "1954-07-09"},
           {"address", "5 oak ave 10115"}})));
  CHECK_FALSE(Matches(
      Ids({{"name", "anna meier"}, {"birth_date", "1980-02-03"}, {"passport", "c01x00t47"}}),
      Ids({{"name", "anna meier"}, {"birth_date", "1980-02-03"}, {"passport", "l898902c3"}})));
  CHECK(Matches(Ids({{"name", "anna meier"}, {"birth_date", "1980-02-03"}}),
                Ids({{"name", "anna meier"}, {"birth_date", "1980-02-03"}})));
}

TEST_CASE("term frequency: a common name says less than a rare one", "[matcher]") {
  const auto record = Ids({{"name", "john smith"}, {"birth_date", "1980-02-03"}});
  const Candidate person{1, record};
  const Score rare = Default().Compare(record, person, {});
  const Score common = Default().Compare(record, person, {{{"name", "john smith"}, 40}});
  CHECK(common.total == Approx(rare.total - std::log2(40.0)));
  REQUIRE_FALSE(common.comparisons.empty());
}

TEST_CASE("a city is evidence, weighed by how many share it", "[matcher]") {
  const auto harry = Ids({{"name", "harry may"}, {"city", "cardiff"}});
  CHECK(Matches(harry, harry));
  CHECK_FALSE(Matches(harry, harry, {{{"city", "cardiff"}, 500}}));
  CHECK_FALSE(Matches(Ids({{"name", "harry may"}}), Ids({{"name", "harry may"}})));
}

TEST_CASE("exclusive values held by a person not matched are reported", "[matcher]") {
  const auto d =
      Default().Decide(Ids({{"customer_id", "c1"}, {"email", "b@x.org"}}),
                       {{Candidate{4, Ids({{"customer_id", "c1"}, {"birth_date", "1990-01-01"}})},
                         Candidate{5, Ids({{"email", "b@x.org"}})}}},
                       {});
  CHECK(d.matches.size() == 2);
  CHECK(d.held_elsewhere.empty());
  const auto e = Default().Decide(
      Ids({{"customer_id", "c1"}, {"birth_date", "1950-03-07"}, {"name", "zed"}}),
      {{Candidate{4,
                  Ids({{"customer_id", "c1"}, {"birth_date", "1990-01-01"}, {"name", "anna"}})}}},
      {});
  CHECK(e.matches.empty());
  CHECK(e.held_elsewhere == Ids({{"customer_id", "c1"}}));
}

}  // namespace
}  // namespace idres
