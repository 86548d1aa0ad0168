// People for the training tests: each a few records of one name, birth
// date, city and email, some with a typo, drawn from a seeded generator so
// that every run makes the same records. Values are already canonical (as
// the normalizers write them).
#pragma once

#include <string>
#include <vector>

#include "normalize/identifier.h"
#include "train/random.h"

namespace idres::testing {

struct Person {
  std::string given, surname, date, city, email;
};

inline std::vector<Person> People(int n, std::uint64_t seed) {
  static const std::vector<std::string> kGiven = {
      "anna",  "ben",   "clara", "david", "emma", "felix", "greta", "hans",  "ida",  "jonas",
      "karla", "lukas", "marie", "noah",  "olga", "paul",  "rosa",  "simon", "tina", "uwe"};
  static const std::vector<std::string> kSurname = {
      "schmidt", "mueller", "weber",   "wagner",  "becker",     "hoffmann", "koch",    "richter",
      "klein",   "wolf",    "neumann", "schwarz", "zimmermann", "braun",    "krueger", "hartmann",
      "lange",   "werner",  "krause",  "lehmann", "koehler",    "maier",    "fuchs",   "vogel"};
  static const std::vector<std::string> kCity = {"berlin",    "hamburg", "munich",  "cologne",
                                                 "frankfurt", "bremen",  "dresden", "leipzig"};
  train::Random random(seed);
  std::vector<Person> out;
  for (int i = 0; i < n; ++i) {
    Person p;
    p.given = kGiven[random.Below(kGiven.size())];
    p.surname = kSurname[random.Below(kSurname.size())];
    const int year = 1940 + static_cast<int>(random.Below(60));
    const int month = 1 + static_cast<int>(random.Below(12));
    const int day = 1 + static_cast<int>(random.Below(28));
    char date[16];
    std::snprintf(date, sizeof date, "%04d-%02d-%02d", year, month, day);
    p.date = date;
    p.city = kCity[random.Below(kCity.size())];
    p.email = p.given + "." + p.surname + std::to_string(i) + "@example.org";
    out.push_back(p);
  }
  return out;
}

// One record of `p`: each value present with probability 0.9, and with
// probability `typo` the name or the date carries a typo.
inline std::vector<Identifier> RecordOf(const Person& p, train::Random& random, double typo) {
  std::vector<Identifier> out;
  std::string name = p.given + " " + p.surname;
  std::string date = p.date;
  if (random.Unit() < typo) name[name.size() - 2] = 'x';
  if (random.Unit() < typo) date[9] = date[9] == '1' ? '2' : '1';
  if (random.Unit() < 0.9) out.push_back({"name", name});
  if (random.Unit() < 0.9) out.push_back({"birth_date", date});
  if (random.Unit() < 0.9) out.push_back({"city", p.city});
  if (random.Unit() < 0.7) out.push_back({"email", p.email});
  return out;
}

}  // namespace idres::testing
