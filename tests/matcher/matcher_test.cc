#include "matcher/matcher.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <initializer_list>

#include "tests/matcher/ids.h"

namespace idres {
namespace {

using testing::Ids;

const Matcher& Default() {
  static const Matcher matcher(Model::Defaults());
  return matcher;
}

// A person made of `records` (each its values), all of them met.
Candidate Person(std::int64_t id, std::initializer_list<std::vector<Identifier>> records) {
  Candidate c{id, records, {}};
  for (const auto& r : records) c.identifiers.insert(c.identifiers.end(), r.begin(), r.end());
  std::sort(c.identifiers.begin(), c.identifiers.end());
  c.identifiers.erase(std::unique(c.identifiers.begin(), c.identifiers.end()), c.identifiers.end());
  return c;
}

// Whether a record holding `record` is the person of one record `person`.
bool Matches(std::vector<Identifier> record, std::vector<Identifier> person,
             const ValueCounts& counts = {}) {
  const Candidate c = Person(1, {std::move(person)});
  return !Default().Decide(record, std::span(&c, 1), counts).matches.empty();
}

TEST_CASE("a shared strong value matches when nothing speaks against it", "[matcher]") {
  CHECK(Matches(Ids({{"email", "a@x.org"}}), Ids({{"email", "a@x.org"}, {"name", "anna"}})));
  CHECK(Matches(Ids({{"email", "a@x.org"}, {"phone", "+15550001"}}),
                Ids({{"email", "a@x.org"}, {"phone", "+15550002"}})));  // a group counts once
  CHECK_FALSE(Matches(Ids({{"email", "b@x.org"}}), Ids({{"email", "a@x.org"}})));
  // A birth date a few weeks off is a slip of the calendar beside a shared
  // email (weeks_apart weighs less than a bit against); another year, or
  // another given name, speaks against it.
  const auto anna =
      Ids({{"email", "a@x.org"}, {"name", "anna meier"}, {"birth_date", "1985-05-21"}});
  CHECK(Matches(Ids({{"email", "a@x.org"}, {"birth_date", "1985-06-19"}}), anna));
  CHECK_FALSE(Matches(Ids({{"email", "a@x.org"}, {"birth_date", "1988-02-09"}}), anna));
  CHECK_FALSE(Matches(
      Ids({{"email", "a@x.org"}, {"name", "lena meier"}, {"birth_date", "1985-06-19"}}), anna));
}

TEST_CASE("a year alone one off does not undo a name, a town and a postcode", "[matcher]") {
  // A register's estimated year against another source's: the historical
  // figures write 1847 and 1848 for one Mary Gladstone.
  const auto mary = Ids({{"name", "mary gladstone"},
                         {"birth_date", "1847-01-01"},
                         {"city", "barrow-in-furness"},
                         {"postal_code", "LA14 1NW"}});
  CHECK(Matches(Ids({{"name", "mary gladstone"},
                     {"birth_date", "1848-01-01"},
                     {"city", "barrow-in-furness"},
                     {"postal_code", "LA14 1NP"}}),
                mary));
  // Two years off is another year, and a relative's given name another
  // person.
  CHECK_FALSE(Matches(Ids({{"name", "mary gladstone"},
                           {"birth_date", "1849-01-01"},
                           {"city", "barrow-in-furness"},
                           {"postal_code", "LA14 1NP"}}),
                      mary));
  CHECK_FALSE(Matches(Ids({{"name", "jane gladstone"},
                           {"birth_date", "1848-01-01"},
                           {"city", "barrow-in-furness"},
                           {"postal_code", "LA14 1NW"}}),
                      mary));
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
  const Candidate c = Person(1, {person});
  const MatchDecision d =
      Default().Decide(Ids({{"email", "info@agency.example"}}), std::span(&c, 1), counts);
  CHECK(d.matches.empty());
  CHECK(d.generic == Ids({{"email", "info@agency.example"}}));
}

TEST_CASE("an email alone does not merge the persons sharing it when they conflict", "[matcher]") {
  std::vector<Candidate> office;
  for (const auto& [id, born] :
       {std::pair{1, "1961-02-03"}, {2, "1975-06-07"}, {3, "1989-10-11"}}) {
    office.push_back(Person(id, {Ids({{"email", "info@agency.example"}, {"birth_date", born}})}));
  }
  const MatchDecision d = Default().Decide(Ids({{"email", "info@agency.example"}}), office,
                                           {{{"email", "info@agency.example"}, 3}});
  CHECK(d.conflict);
  CHECK_FALSE(d.kept_apart);
  CHECK(d.matches == std::vector<std::int64_t>{1});  // a tie goes to the oldest
}

TEST_CASE("a dated record sharing an email merges across a slipped birth date, a namesake does not",
          "[matcher]") {
  // One person's records, one of them with its birth date ten years and a
  // few days off, and its email one edit off the other's.
  const std::vector<Candidate> reggie = {Person(1, {Ids({{"name", "reggie"},
                                                         {"birth_date", "1996-08-05"},
                                                         {"city", "coventry"},
                                                         {"email", "r.m51@leonard.net"}})}),
                                         Person(2, {Ids({{"name", "reggie mason"},
                                                         {"birth_date", "1986-09-09"},
                                                         {"city", "coventry"},
                                                         {"email", "r..m51@leonard.net"}})})};
  // Agrees with 2's date and holds 1's email: it vouches for both matches.
  const auto record = Ids({{"name", "reggie"},
                           {"birth_date", "1986-09-09"},
                           {"city", "coventry"},
                           {"email", "r.m51@leonard.net"}});
  const MatchDecision joined = Default().Decide(record, reggie, {});
  CHECK_FALSE(joined.conflict);
  CHECK(joined.matches == std::vector<std::int64_t>{1, 2});
  // Namesakes of one town born five years apart: a record with the name,
  // the town and one of the dates matches both, and vouches for neither
  // date it contradicts with a strong value.
  const std::vector<Candidate> namesakes = {Person(1, {Ids({{"name", "li wei"},
                                                            {"birth_date", "1980-01-01"},
                                                            {"city", "wuhan"},
                                                            {"phone", "+8613800000001"}})}),
                                            Person(2, {Ids({{"name", "li wei"},
                                                            {"birth_date", "1985-02-02"},
                                                            {"city", "wuhan"},
                                                            {"phone", "+8613800000002"}})})};
  const MatchDecision apart = Default().Decide(
      Ids({{"name", "li wei"}, {"birth_date", "1980-01-01"}, {"city", "wuhan"}}), namesakes, {});
  CHECK(apart.conflict);
  CHECK(apart.matches == std::vector<std::int64_t>{1});
  // Nor does a record without a date, whatever it shares.
  const MatchDecision undated = Default().Decide(
      Ids({{"name", "li wei"}, {"city", "wuhan"}, {"phone", "+8613800000002"}}), namesakes, {});
  CHECK(undated.matches.size() == 1);
}

TEST_CASE("a steward's never-match keeps two matches apart: the record joins the best",
          "[matcher]") {
  const std::vector<Candidate> both = {
      Person(1, {Ids({{"email", "a@x.org"}})}),
      Person(2, {Ids({{"email", "a@x.org"}, {"name", "anna meier"}})})};
  const auto record = Ids({{"email", "a@x.org"}, {"name", "anna meier"}});
  const MatchDecision d = Default().Decide(record, both, {{{"email", "a@x.org"}, 2}},
                                           [](std::int64_t, std::int64_t) { return true; });
  CHECK(d.kept_apart);
  CHECK(d.matches == std::vector<std::int64_t>{2});
  CHECK(d.possible.empty());  // kept apart from the one it joined: not for review
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

TEST_CASE("twins: one birth date, email and address, two given names", "[matcher]") {
  const auto twin = [](const char* name) {
    return Ids({{"name", name},
                {"birth_date", "1991-08-17"},
                {"email", "kowalski.home@example.net"},
                {"address", "7 birch rd 60311"}});
  };
  CHECK_FALSE(Matches(twin("marta kowalski"), twin("ewa kowalski")));
  CHECK(Matches(twin("marta kowalski"), twin("marta kowalski")));
}

TEST_CASE("father and son: a generational suffix that disagrees keeps them apart", "[matcher]") {
  const auto at_home = [](const char* name, const char* born) {
    return Ids({{"name", name},
                {"birth_date", born},
                {"phone", "+15557770101"},
                {"address", "40 elm st 02139"}});
  };
  CHECK_FALSE(
      Matches(at_home("samuel reed jr", "1988-04-02"), at_home("samuel reed sr", "1961-10-30")));
  // A suffix on one side only says nothing by itself.
  CHECK(Matches(at_home("samuel reed jr", "1988-04-02"), at_home("samuel reed", "1988-04-02")));
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

TEST_CASE("a comparison of a group that disagrees counts beside one that agrees", "[matcher]") {
  // One name, one city, another phone and birth date: the phone is not
  // dropped because the city agreed.
  const Score s = Default().Compare(Ids({{"name", "li wei"},
                                         {"city", "shenzhen"},
                                         {"phone", "+8613800000001"},
                                         {"birth_date", "1990-04-01"}}),
                                    Ids({{"name", "li wei"},
                                         {"city", "shenzhen"},
                                         {"phone", "+8613800000002"},
                                         {"birth_date", "1986-11-23"}}),
                                    {});
  bool city = false, phone = false;
  for (const Comparison& c : s.comparisons) {
    city = city || (c.type == "city" && c.counted && c.weight > 0);
    phone = phone || (c.type == "phone" && c.counted && c.weight < 0);
  }
  CHECK(city);
  CHECK(phone);
  CHECK(s.total < Default().model().threshold);
}

TEST_CASE("the placeholder birth date 1900-01-01 is evidence neither way", "[matcher]") {
  // Two namesakes whose systems wrote the placeholder: a whole name alone,
  // not a name and a shared year.
  const auto john = Ids({{"name", "john smith"}, {"birth_date", "1900-01-01"}});
  CHECK_FALSE(Matches(john, john));
  CHECK(Default().Compare(john, john, {}).comparisons.size() == 1);  // the name only
  // Nor against a real date: with the person's email the record joins it.
  const auto dated = [](const char* date) {
    return Ids({{"name", "john smith"}, {"email", "j.smith@example.org"}, {"birth_date", date}});
  };
  CHECK(Matches(dated("1900-01-01"), dated("1975-06-12")));
  // A record whose only date is the placeholder takes no side between two
  // namesakes of one email it matches, born years apart: it joins one.
  const std::vector<Candidate> two = {Person(1, {dated("1975-06-12")}),
                                      Person(2, {dated("1944-02-20")})};
  const MatchDecision d = Default().Decide(dated("1900-01-01"), two, {});
  CHECK(d.conflict);
  CHECK(d.matches == std::vector<std::int64_t>{1});
}

TEST_CASE("a single name, a year alone: weak evidence", "[matcher]") {
  CHECK_FALSE(Matches(Ids({{"name", "alfred"}, {"birth_date", "1850-01-01"}}),
                      Ids({{"name", "alfred"}, {"birth_date", "1850-01-01"}})));
  CHECK_FALSE(Matches(Ids({{"name", "thomas white"}, {"birth_date", "1628-01-01"}}),
                      Ids({{"name", "thomas"}, {"birth_date", "1628-01-01"}})));
}

TEST_CASE("a person is compared through its records, never through their union", "[matcher]") {
  // Each record shares one weak value with the new one, none two: a name
  // from one, a birth date from another, a city from a third.
  const Candidate chain = Person(1, {Ids({{"name", "oliver grant"}, {"city", "york"}}),
                                     Ids({{"birth_date", "1962-05-14"}, {"city", "hull"}}),
                                     Ids({{"city", "leeds"}, {"name", "ruth ames"}})});
  const auto record =
      Ids({{"name", "oliver grant"}, {"birth_date", "1962-05-14"}, {"city", "leeds"}});
  const MatchDecision d = Default().Decide(record, std::span(&chain, 1), {});
  CHECK(d.matches.empty());
  // One record saying all of it is a match.
  const Candidate whole = Person(1, {record});
  CHECK(Default().Decide(record, std::span(&whole, 1), {}).matches.size() == 1);
}

TEST_CASE("an organization never matches a person", "[matcher]") {
  CHECK_FALSE(Matches(Ids({{"organization", "acme widgets ltd"}, {"email", "info@acme.example"}}),
                      Ids({{"name", "anna meier"}, {"email", "info@acme.example"}})));
  CHECK(Matches(Ids({{"organization", "acme widgets ltd"}, {"address", "1 dock rd e16"}}),
                Ids({{"organization", "acme widgets"}, {"address", "1 dock rd e16"}})));
  CHECK_FALSE(Matches(Ids({{"organization", "orion logistics gmbh"}, {"address", "1 dock rd e16"}}),
                      Ids({{"organization", "acme widgets ltd"}, {"address", "1 dock rd e16"}})));
}

TEST_CASE("term frequency: a common name says less than a rare one", "[matcher]") {
  const auto record = Ids({{"name", "john smith"}, {"birth_date", "1980-02-03"}});
  const Candidate person = Person(1, {record});
  const Score rare = Default().Compare(record, person, {});
  const Score common = Default().Compare(record, person, {{{"name", "john smith"}, 40}});
  CHECK(common.total == Approx(rare.total - std::log2(40.0)));
  REQUIRE_FALSE(common.comparisons.empty());
}

// One person's records split over two persons (decided in the order they
// came): the name is held by both. A record that matches the first is that
// person, so the second meets the name held by one person, not two: a whole
// name beside a birth date two parts off (+13.5 + 1.3) joins them. A third
// holder of the name is another person: then the name counts two holders.
TEST_CASE("term frequency: the persons a record matches are not other holders", "[matcher]") {
  const Identifier name{"name", "arlo west"};
  const std::vector<Candidate> split = {
      Person(1, {Ids({{"name", "arlo west"}, {"birth_date", "2007-03-19"}})}),
      Person(2, {Ids({{"name", "arlo west"}, {"birth_date", "2008-03-16"}})})};
  const auto record = Ids({{"name", "arlo west"}, {"birth_date", "2007-03-19"}});
  const MatchDecision d = Default().Decide(record, split, {{name, 2}});
  CHECK_FALSE(d.conflict);
  CHECK(d.matches == std::vector<std::int64_t>{1, 2});
  CHECK(d.details.at(2).total == Approx(Default().Compare(record, split[1], {}).total));
  // Held by a third person as well: the name weighs as held by two.
  const MatchDecision three = Default().Decide(record, split, {{name, 3}});
  CHECK(three.matches == std::vector<std::int64_t>{1});
  CHECK(three.details.at(2).total ==
        Approx(Default().Compare(record, split[1], {{name, 2}}).total));
}

TEST_CASE("a city is evidence, weighed by how many share it", "[matcher]") {
  const auto harry = Ids({{"name", "harry may"}, {"city", "cardiff"}});
  CHECK(Matches(harry, harry));
  CHECK_FALSE(Matches(harry, harry, {{{"city", "cardiff"}, 500}}));
  CHECK_FALSE(Matches(Ids({{"name", "harry may"}}), Ids({{"name", "harry may"}})));
}

TEST_CASE("exclusive values held by a person not matched are reported", "[matcher]") {
  const std::vector<Candidate> two = {
      Person(4, {Ids({{"customer_id", "c1"}, {"birth_date", "1990-01-01"}})}),
      Person(5, {Ids({{"email", "b@x.org"}})})};
  const auto d = Default().Decide(Ids({{"customer_id", "c1"}, {"email", "b@x.org"}}), two, {});
  CHECK(d.matches.size() == 2);
  CHECK(d.held_elsewhere.empty());
  const Candidate anna =
      Person(4, {Ids({{"customer_id", "c1"}, {"birth_date", "1990-01-01"}, {"name", "anna"}})});
  const auto e =
      Default().Decide(Ids({{"customer_id", "c1"}, {"birth_date", "1950-03-07"}, {"name", "zed"}}),
                       std::span(&anna, 1), {});
  CHECK(e.matches.empty());
  CHECK(e.held_elsewhere == Ids({{"customer_id", "c1"}}));
}

TEST_CASE("candidates in the review band are possible matches", "[matcher]") {
  const Candidate near = Person(7, {Ids({{"name", "maria lopez"}, {"city", "sevilla"}})});
  const auto d =
      Default().Decide(Ids({{"name", "maria lopez"}, {"city", "cadiz"}}), std::span(&near, 1), {});
  CHECK(d.matches.empty());
  CHECK(d.possible == std::vector<std::int64_t>{7});
}

}  // namespace
}  // namespace idres
