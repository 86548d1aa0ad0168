// Decisions on data the defaults were never tuned on (docs/matching.md, "The
// matching model"): persons made of coherent records, not snowballs; evidence
// against where people differ (common names, twins, fathers and sons); names
// in every order and script; organizations. Each through the real engine on
// a real PostgreSQL, record by record.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tests/engine/engine_fixture.h"
#include "tests/engine/race_check.h"

namespace idres::testing {
namespace {

std::int64_t Holders(const TestDatabase& db, const std::string& type, const std::string& value) {
  return db.Count("SELECT count(DISTINCT person_id) FROM identifiers WHERE type = '" + type +
                  "' AND value = '" + value + "'");
}

TEST_CASE("thirty people of one common name in one city stay thirty", "[pg][decisions]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  for (int i = 0; i < 30; ++i) {
    // Their own birth dates (no two within a typo of each other) and phones.
    const int month = 1 + (i * 5) % 12;
    const std::string born = std::to_string(1950 + i) + (month < 10 ? "-0" : "-") +
                             std::to_string(month) + "-" + std::to_string(10 + i % 19);
    REQUIRE(engine
                ->Upsert(Rec({{"name", "Li Wei"},
                              {"city", "Shenzhen"},
                              {"birth_date", born},
                              {"phone", "+86 138 0013 " + std::to_string(1000 + i)}},
                             {}, "CN"))
                .ok());
  }
  CHECK(PersonCount(db) == 30);
  CHECK(Holders(db, "name", "li wei") == 30);  // term frequency sees thirty holders
  // The name and the city alone: any of the thirty, none enough.
  const UpsertResult only = engine->Upsert(Rec({{"name", "Li Wei"}, {"city", "Shenzhen"}}));
  CHECK(only.outcome == Outcome::kCreated);
  CHECK(PersonCount(db) == 31);
}

// A record is compared with at most the model's max_candidates (5) of the
// persons it meets through blocking keys alone (docs/matching.md, "How many
// candidates a record reads"). Thirty older namesakes share its name and
// city keys; the one it is shares its birth date's keys too, and is compared
// though it is the newest of thirty-one.
TEST_CASE("more namesakes than the candidate bound: a record still meets its own person",
          "[pg][decisions]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const auto li_wei = [&](const std::string& born, const std::string& phone) {
    return engine->Upsert(
        Rec({{"name", "Li Wei"}, {"city", "Shenzhen"}, {"birth_date", born}, {"phone", phone}}, {},
            "CN"));
  };
  for (int i = 0; i < 30; ++i) {  // as the thirty above, born apart
    const int month = 1 + (i * 5) % 12;
    const std::string born = std::to_string(1950 + i) + (month < 10 ? "-0" : "-") +
                             std::to_string(month) + "-" + std::to_string(10 + i % 19);
    REQUIRE(li_wei(born, "+86 138 0013 " + std::to_string(1000 + i)).outcome == Outcome::kCreated);
  }
  const UpsertResult newest = li_wei("1987-11-23", "+86 138 0013 2000");
  REQUIRE(newest.outcome == Outcome::kCreated);
  REQUIRE(Model::Defaults().max_candidates < 30);
  // No phone: found through its keys alone.
  const UpsertResult again = engine->Upsert(
      Rec({{"name", "Li Wei"}, {"city", "Shenzhen"}, {"birth_date", "1987-11-23"}}, {}, "CN"));
  CHECK(again.person_id == newest.person_id);
  CHECK(PersonCount(db) == 31);
}

TEST_CASE("twins: one birth date, email and address, two given names, two persons",
          "[pg][decisions]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const auto twin = [&](const char* given) {
    return engine->Upsert(Rec({{"name", std::string(given) + " Kowalski"},
                               {"birth_date", "1991-08-17"},
                               {"email", "kowalski.home@example.net"},
                               {"address", "7 Birch Road, 60311"}}));
  };
  const UpsertResult marta = twin("Marta");
  const UpsertResult ewa = twin("Ewa");
  CHECK(marta.outcome == Outcome::kCreated);
  CHECK(ewa.outcome == Outcome::kCreated);
  CHECK(PersonCount(db) == 2);
  CHECK(twin("Marta").person_id == marta.person_id);  // each still finds herself
}

TEST_CASE("a father and his son, Jr. and Sr., at one address and phone: two persons",
          "[pg][decisions]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const auto reed = [&](const char* name) {
    return engine->Upsert(
        Rec({{"name", name}, {"phone", "+1 617 555 0101"}, {"address", "40 Elm Street 02139"}}));
  };
  const UpsertResult father = reed("Samuel Reed Sr.");
  const UpsertResult son = reed("Samuel Reed, Jr.");
  CHECK(son.outcome == Outcome::kCreated);
  CHECK(son.person_id != father.person_id);
  CHECK(PersonCount(db) == 2);
  CHECK(IdentifiersOf(db, son.person_id)[1] == "name:samuel reed jr");
}

TEST_CASE("names in another order or script meet their person", "[pg][decisions]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const UpsertResult hoa =
      engine->Upsert(Rec({{"name", "Nguyen, Thi Hoa"}, {"phone", "+84 91 234 5678"}}));
  CHECK(engine->Upsert(Rec({{"name", "Hoa Thi Nguyen"}, {"phone", "+84 91 234 5678"}})).person_id ==
        hoa.person_id);
  // A name in a native script, then in its usual Latin spelling, each
  // with one other value: the second joins the first's person.
  std::int64_t persons = 1;
  const auto meet = [&](const char* native, const char* latin, const char* type,
                        const char* native_value, const char* latin_value) {
    const UpsertResult first = engine->Upsert(Rec({{"name", native}, {type, native_value}}));
    const UpsertResult second = engine->Upsert(Rec({{"name", latin}, {type, latin_value}}));
    INFO(native << " / " << latin);
    CHECK(second.outcome == Outcome::kUpdated);
    CHECK(second.person_id == first.person_id);
    CHECK(PersonCount(db) == ++persons);
  };
  meet("ΠΑΠΑΔΟΠΟΥΛΟΣ Γιώργος", "Georgios Papadopoulos", "address", "12 Ermou Street 10563",
       "12 Ermou St 10563");
  // Hangul, surname first and the given name in one word, against the usual
  // English spelling with a hyphen.
  meet("김민준", "KIM Min-jun", "birth_date", "1995-05-05", "1995-05-05");
  // Arabic script, written without short vowels, against its English
  // spelling with the article apart.
  meet("محمد الراشد", "Mohammed Al-Rashid", "birth_date", "1975-06-01", "1975-06-01");
  // Khmer, against its usual spelling.
  meet("ហ៊ុន សែន", "Hun Sen", "birth_date", "1952-08-05", "1952-08-05");
  // A mailbox with a display name is its address.
  const UpsertResult ann = engine->Upsert(Rec({{"email", "\"Ann Lee\" <ann.lee@example.org>"}}));
  CHECK(IdentifiersOf(db, ann.person_id) == std::vector<std::string>{"email:ann.lee@example.org"});
}

TEST_CASE("a name garbled in one way meets its person when every other value is garbled too",
          "[pg][decisions]") {
  // Each second record's birth date is two parts off and its town
  // misspelt, so no key of a date or a town is shared: only the name's own
  // keys (docs/matching.md, "Keys become locks": name_sorted,
  // given_surname_prefix, surname_given_initial) bring the two together.
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  std::int64_t persons = 0;
  const auto meet = [&](const char* first_name, const char* second_name, const char* town,
                        const char* misspelt) {
    const UpsertResult first =
        engine->Upsert(Rec({{"name", first_name}, {"birth_date", "1980-03-02"}, {"city", town}}));
    const UpsertResult second = engine->Upsert(
        Rec({{"name", second_name}, {"birth_date", "1981-04-02"}, {"city", misspelt}}));
    INFO(first_name << " / " << second_name);
    CHECK(second.person_id == first.person_id);
    CHECK(PersonCount(db) == ++persons);
  };
  meet("Aarav Singh", "Singh Aarav", "Leeds", "Lieds");  // surname first, no comma
  meet("Bartholomew Kowalczyk", "Bartholomew Kowalczk", "Krakow", "Krakw");  // a letter lost
  meet("Magdalena Nowakowska", "Magdelena Nowakowska", "Gdansk", "Gdnask");  // a letter changed
}

TEST_CASE("organizations: two spellings of one company, another company at its address",
          "[pg][decisions]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const auto company = [&](const char* name) {
    return engine->Upsert(
        Rec({{"organization", name}, {"address", "1 Dock Road, London E16 2QU"}}));
  };
  const UpsertResult acme = company("ACME Widgets Ltd.");
  CHECK(company("Acme Widgets Limited").person_id == acme.person_id);
  const UpsertResult orion = company("Orion Logistics GmbH");
  CHECK(orion.outcome == Outcome::kCreated);
  CHECK(PersonCount(db) == 2);
  // A person at that address, with the company's name as hers: never the
  // company (an organization is not a person).
  const UpsertResult clerk =
      engine->Upsert(Rec({{"name", "Acme Widgets"}, {"address", "1 Dock Road, London E16 2QU"}}));
  CHECK(clerk.outcome == Outcome::kCreated);
  // A contact naming the company she works for is a person: her records
  // meet each other, never the company.
  const UpsertResult contact = engine->Upsert(Rec({{"name", "Jane Roe"},
                                                   {"organization", "ACME Widgets Ltd"},
                                                   {"email", "jane.roe@acme.example"}}));
  CHECK(contact.person_id != acme.person_id);
  const UpsertResult again = engine->Upsert(Rec(
      {{"name", "Jane Roe"}, {"email", "jane.roe@acme.example"}, {"phone", "+44 20 7946 0101"}}));
  CHECK(again.outcome == Outcome::kUpdated);
  CHECK(again.person_id == contact.person_id);
}

TEST_CASE("a chain of records each sharing one weak value with earlier ones is no snowball",
          "[pg][decisions]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  // One person of two records, joined by a shared phone.
  const std::int64_t oliver =
      engine
          ->Upsert(Rec({{"name", "Oliver Grant"}, {"city", "York"}, {"phone", "+44 20 7946 0001"}},
                       {}, "GB"))
          .person_id;
  REQUIRE(engine
              ->Upsert(Rec(
                  {{"birth_date", "1962-05-14"}, {"city", "Hull"}, {"phone", "+44 20 7946 0001"}},
                  {}, "GB"))
              .person_id == oliver);
  // Then a chain: each record says one value of one earlier record and one
  // of another, never two of one. Compared with the union of the person's
  // values, each would reach the threshold (a name from one record, a birth
  // date from another) and bring its own values for the next one.
  const std::vector<Record> chain = {
      Rec({{"name", "Oliver Grant"}, {"birth_date", "1962-05-14"}}),
      Rec({{"birth_date", "1962-05-14"}, {"city", "York"}, {"name", "Ruth Ames"}}),
      Rec({{"name", "Ruth Ames"}, {"city", "Hull"}}),
      Rec({{"city", "York"}, {"name", "Tom Hale"}, {"birth_date", "1971-09-03"}}),
      Rec({{"name", "Tom Hale"}, {"city", "Hull"}}),
      Rec({{"birth_date", "1971-09-03"}, {"name", "Oliver Grant"}})};
  for (const Record& r : chain) CHECK(engine->Upsert(r).outcome == Outcome::kCreated);
  CHECK(PersonCount(db) == 1 + static_cast<std::int64_t>(chain.size()));
  CHECK(db.Count("SELECT max(n) FROM (SELECT count(*) AS n FROM records GROUP BY person_id) r") ==
        2);
}

// Eight spellings of one company sent at once, no strong value in common:
// only the shared blocking key of their name's core orders them.
TEST_CASE("race: eight spellings of one organization at once: one organization",
          "[pg][race][decisions]") {
  Race race;
  race.record = [](int i) {
    const char* spellings[] = {"ACME Widgets Ltd.",  "Acme Widgets Limited",
                               "ACME WIDGETS LTD",   "Acme Widgets",
                               "acme widgets ltd",   "Acme Widgets Ltd (the)",
                               "ACME Widgets, Ltd.", "Acme  Widgets  Limited"};
    return Rec({{"organization", spellings[i % 8]},
                {"address", "1 Dock Road, London E16 2QU"},
                {"cookie", "device-" + std::to_string(i)}});
  };
  race.violation = [](const TestDatabase& db, Engine&) -> std::string {
    const std::int64_t n = PersonCount(db);
    return n == 1 ? "" : std::to_string(n) + " organizations, expected 1";
  };
  CheckRace(race);
}

}  // namespace
}  // namespace idres::testing
