#include "matcher/lock_plan.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "normalize/lock_key.h"
#include "normalize/utf8.h"
#include "tests/matcher/ids.h"

namespace idres {
namespace {

using testing::Ids;

bool Sorted(const std::vector<std::int64_t>& v) {
  return std::adjacent_find(v.begin(), v.end(), std::greater_equal<>()) == v.end();
}

bool ShareKey(const LockPlan& a, const LockPlan& b) {
  std::vector<std::int64_t> shared;
  std::set_intersection(a.lock_keys.begin(), a.lock_keys.end(), b.lock_keys.begin(),
                        b.lock_keys.end(), std::back_inserter(shared));
  return !shared.empty();
}

const LockPlanner& Planner() {
  static const LockPlanner planner(Model::Defaults());
  return planner;
}

TEST_CASE("strong values are locked alone, sorted and deduplicated", "[matcher]") {
  const auto plan = Planner().Plan(Ids(
      {{"phone", "+491701234567"}, {"email", "anna@example.com"}, {"email", "anna@example.com"}}));
  REQUIRE_FALSE(plan.error);
  // The email's local part is a blocking key of its own (a typo in the
  // domain still meets).
  const std::int64_t local = CompositeLockKey(Ids({{"email_local.email.local", "anna"}}));
  std::vector<std::int64_t> expected = {LockKey("email", "anna@example.com"),
                                        LockKey("phone", "+491701234567"), local};
  std::sort(expected.begin(), expected.end());
  CHECK(plan.lock_keys == expected);
  CHECK(plan.match_keys == std::vector<std::int64_t>{local});
  CHECK(plan.lookups == Ids({{"email", "anna@example.com"}, {"phone", "+491701234567"}}));
}

TEST_CASE("a blocking key hashes the rule's parts as docs/design.md says", "[matcher]") {
  const auto plan = Planner().Plan(Ids({{"name", "jose muller"}, {"postal_code", "SW1A1AA"}}));
  REQUIRE_FALSE(plan.error);
  // One key per initial: a misspelt given name or surname still meets.
  const std::int64_t key =
      CompositeLockKey(Ids({{"postal_code_initials.name.initials", "j"},
                            {"postal_code_initials.postal_code.value", "SW1A1AA"}}));
  const std::int64_t surname_initial =
      CompositeLockKey(Ids({{"postal_code_initials.name.initials", "m"},
                            {"postal_code_initials.postal_code.value", "SW1A1AA"}}));
  const std::int64_t full_name =
      CompositeLockKey(Ids({{"given_class_surname.name.given_class", "jose"},
                            {"given_class_surname.name.surname", "muller"}}));
  const std::int64_t sorted = CompositeLockKey(Ids({{"name_sorted.name.sorted", "jose muller"}}));
  const std::int64_t prefix =
      CompositeLockKey(Ids({{"given_surname_prefix.name.given_surname_prefix", "jose mul"}}));
  const std::int64_t initial =
      CompositeLockKey(Ids({{"surname_given_initial.name.surname_given_initial", "muller j"}}));
  std::vector<std::int64_t> expected = {key, surname_initial, full_name, sorted, prefix, initial};
  std::sort(expected.begin(), expected.end());
  CHECK(plan.match_keys == expected);
  CHECK(plan.lock_keys == plan.match_keys);
  CHECK(plan.lookups.empty());
}

TEST_CASE("records that could match share a locked key, fuzzy ones too", "[matcher]") {
  const auto P = [](std::initializer_list<std::pair<const char*, const char*>> ids) {
    return Planner().Plan(Ids(ids));
  };
  // Phonetic surname + birth year.
  CHECK(ShareKey(P({{"name", "jon smyth"}, {"birth_date", "1978-04-01"}}),
                 P({{"name", "john smith"}, {"birth_date", "1978-04-01"}})));
  // Nickname class + surname + birth date.
  CHECK(ShareKey(P({{"name", "bob jones"}, {"birth_date", "1970-05-06"}}),
                 P({{"name", "robert jones"}, {"birth_date", "1970-05-06"}})));
  // Street and house number.
  CHECK(ShareKey(P({{"address", "12 main st apt 4 10115"}}), P({{"address", "12 main st 10115"}})));
  // A city with a phonetic name, or with the birth date: a misspelt name
  // and a mistyped year still meet their person.
  CHECK(ShareKey(P({{"name", "harry may"}, {"birth_date", "1988-11-25"}, {"city", "cardiff"}}),
                 P({{"name", "harry may"}, {"birth_date", "1987-10-28"}, {"city", "cardiff"}})));
  CHECK(ShareKey(
      P({{"name", "nicholon"}, {"birth_date", "2006-12-21"}, {"city", "reading"}}),
      P({{"name", "william nicholson"}, {"birth_date", "2006-12-21"}, {"city", "reading"}})));
  // A postcode and an initial: a name misspelt past its sound, or a
  // nickname beside a misspelt surname, still meets its person there.
  CHECK(ShareKey(P({{"name", "arrhur"}, {"city", "wokingham"}, {"postal_code", "RG5 4TT"}}),
                 P({{"name", "arthur richardson"},
                    {"birth_date", "1860-02-05"},
                    {"postal_code", "RG5 4TT"}})));
  CHECK(ShareKey(P({{"name", "reggie adam"}, {"postal_code", "10115"}}),
                 P({{"name", "reginald adams"}, {"postal_code", "10115"}})));
  // A shared postal code or birth date alone shares nothing: no hot key.
  CHECK_FALSE(ShareKey(
      P({{"name", "anna meier"}, {"birth_date", "1980-01-01"}, {"postal_code", "10115"}}),
      P({{"name", "bert novak"}, {"birth_date", "1975-05-05"}, {"postal_code", "10115"}})));
  CHECK_FALSE(ShareKey(P({{"name", "anna meier"}, {"birth_date", "1980-01-01"}}),
                       P({{"name", "carl brown"}, {"birth_date", "1980-01-01"}})));
  CHECK(P({{"postal_code", "10115"}}).lock_keys.empty());
  // The placeholder date is no date: no key of it, so records holding it
  // do not all queue behind one key per initial or town.
  CHECK(P({{"name", "anna meier"}, {"birth_date", "1900-01-01"}, {"city", "york"}}).lock_keys ==
        P({{"name", "anna meier"}, {"city", "york"}}).lock_keys);
}

TEST_CASE("a name meets its person in another order or with a typo, whatever else differs",
          "[matcher]") {
  // Each pair has every other value garbled (a date years apart, a town
  // misspelt): only the name can bring them together.
  const auto P = [](const char* name, const char* date, const char* city) {
    return Planner().Plan(Ids({{"name", name}, {"birth_date", date}, {"city", city}}));
  };
  // Written surname first, without a comma: the sorted words.
  CHECK(ShareKey(P("singh aarav", "1990-02-03", "lieds"), P("aarav singh", "1980-03-02", "leeds")));
  // A letter lost from the surname (kowalczk, kowalczyk): the given name
  // and the surname's first three letters.
  CHECK(ShareKey(P("piotr kowalczk", "1971-08-09", "krakw"),
                 P("piotr kowalczyk", "1961-09-08", "krakow")));
  // A typo in the given name: the surname and the given name's initial.
  CHECK(ShareKey(P("magdelena nowak", "1971-08-09", "gdnask"),
                 P("magdalena nowak", "1961-09-08", "gdansk")));
  // Two given names of one surname and of other initials share no key
  // through the name alone; nor does a surname alone (a word that may be a
  // given name or a surname makes none of the three keys).
  CHECK_FALSE(
      ShareKey(P("anna nowak", "1971-08-09", "gdansk"), P("maria nowak", "1961-09-08", "poznan")));
  CHECK_FALSE(
      ShareKey(P("nowak", "1971-08-09", "gdansk"), P("maria nowak", "1961-09-08", "poznan")));
}

TEST_CASE("a name's own keys pair its given name with its own surname", "[matcher]") {
  // A record with two names makes the keys of each, never a given name of
  // one with the surname of the other (ivan petrov + maria kowalska would
  // make ivan kow and kowalska i).
  const auto plan = Planner().Plan(Ids({{"name", "ivan petrov"}, {"name", "maria kowalska"}}));
  REQUIRE_FALSE(plan.error);
  const auto has = [&](const std::string& rule, const char* value) {
    const std::string part = rule + ".name." + rule;
    const std::int64_t key = CompositeLockKey(Ids({{part.c_str(), value}}));
    return std::binary_search(plan.match_keys.begin(), plan.match_keys.end(), key);
  };
  CHECK(has("given_surname_prefix", "ivan pet"));
  CHECK(has("surname_given_initial", "kowalska m"));
  CHECK_FALSE(has("given_surname_prefix", "ivan kow"));
  CHECK_FALSE(has("surname_given_initial", "kowalska i"));
}

TEST_CASE("a key's parts are whole characters, so an explanation can carry them", "[matcher]") {
  // Transliteration leaves the click letter of a Juǀ'hoan name as it is:
  // its initial is two bytes, and half of it is no UTF-8 a proto string or
  // JSON can hold (Explain's response could not be read).
  const auto keys =
      Planner().BlockingKeys(Ids({{"name", "ǂkxao tom"}, {"birth_date", "1970-01-02"}}));
  REQUIRE_FALSE(keys.empty());
  bool initial = false;
  for (const BlockingKey& k : keys) {
    INFO(k.rule << ": " << k.parts);
    CHECK_FALSE(FindInvalidUtf8(k.parts));
    initial = initial || k.parts == "1970-01-02 ǂ";
  }
  CHECK(initial);
}

TEST_CASE("too many keys reject the record", "[matcher]") {
  std::vector<Identifier> ids;
  for (int i = 0; i < 20; ++i) {
    ids.push_back({"name", "anna meier" + std::to_string(i)});
    ids.push_back({"birth_date", "1980-01-" + std::to_string(10 + i)});
  }
  const auto plan = Planner().Plan(ids);
  REQUIRE(plan.error);
  CHECK_THAT(*plan.error, Catch::Contains("too many keys"));
}

TEST_CASE("unknown types take no part in locking", "[matcher]") {
  const auto plan = Planner().Plan(Ids({{"shoe_size", "44"}}));
  CHECK(plan.lock_keys.empty());
  CHECK(plan.lookups.empty());
}

TEST_CASE("a person's match keys cover all its values, capped", "[matcher]") {
  const auto ids = Ids({{"name", "anna meier"},
                        {"name", "anna m meier"},
                        {"birth_date", "1980-01-01"},
                        {"postal_code", "10115"}});
  bool truncated = true;
  const auto keys = Planner().MatchKeys(ids, 1000, &truncated);
  CHECK_FALSE(truncated);
  CHECK(Sorted(keys));
  for (const auto& one : {Ids({{"name", "anna meier"}, {"birth_date", "1980-01-01"}}),
                          Ids({{"name", "anna m meier"}, {"postal_code", "10115"}})}) {
    for (std::int64_t k : Planner().Plan(one).match_keys) {
      CHECK(std::binary_search(keys.begin(), keys.end(), k));
    }
  }
  const auto capped = Planner().MatchKeys(ids, 2, &truncated);
  CHECK(truncated);
  CHECK(capped.size() <= 2);
}

}  // namespace
}  // namespace idres
