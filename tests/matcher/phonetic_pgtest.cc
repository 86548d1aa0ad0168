#include "matcher/phonetic.h"

#include <catch2/catch.hpp>
#include <pqxx/pqxx>
#include <random>
#include <set>
#include <string>

#include "matcher/detail/nicknames_csv.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

// The names of the nickname table (letters and the odd dot) and random words
// built from the spellings Double Metaphone's rules look for.
std::set<std::string> Names() {
  std::set<std::string> names;
  std::string word;
  for (char c : kNicknamesCsv) {
    if (c == ',' || c == '\n' || c == '\r') {
      if (!word.empty() && word != "has_nickname") names.insert(word);
      word.clear();
    } else {
      word += c;
    }
  }
  names.erase("name1");
  names.erase("name2");
  names.erase("relationship");
  const char* chunks[] = {"a",    "e",    "i",    "o",    "y",   "b",   "c",  "d",  "g",
                          "h",    "j",    "l",    "m",    "n",   "p",   "r",  "s",  "t",
                          "w",    "x",    "z",    "ch",   "sch", "gh",  "gn", "cc", "cz",
                          "ll",   "ie",   "au",   "tion", "dg",  "th",  "ph", "sc", "mc",
                          "van ", "san ", "jose", "wicz", "er",  "aggi"};
  std::mt19937 rng(17);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(chunks) - 1), count(1, 5);
  for (int i = 0; i < 1000; ++i) {
    std::string name;
    for (std::size_t n = count(rng); n > 0; --n) name += chunks[pick(rng)];
    names.insert(name);
  }
  return names;
}

constexpr const char* kCodes =
    "SELECT n, dmetaphone(n), dmetaphone_alt(n) FROM string_to_table($1, E'\\n') AS n";

TEST_CASE("Double Metaphone agrees with PostgreSQL's fuzzystrmatch", "[pg][matcher][phonetic]") {
  TestDatabase db;
  db.Exec("CREATE EXTENSION IF NOT EXISTS fuzzystrmatch");
  const std::set<std::string> names = Names();
  std::string lines;
  for (const std::string& name : names) lines += (lines.empty() ? "" : "\n") + name;
  pqxx::connection connection(db.url());
  pqxx::nontransaction tx(connection);
  const pqxx::result rows = tx.exec_params(kCodes, lines);
  CHECK(names.size() > 2500);
  CHECK(rows.size() == names.size());
  for (const auto& row : rows) {
    const std::string name = row[0].as<std::string>();
    const PhoneticCodes codes = DoubleMetaphone(name);
    INFO(name);
    CHECK(codes.primary == row[1].as<std::string>());
    CHECK(codes.alternate == row[2].as<std::string>());
  }
}

}  // namespace
}  // namespace idres::testing
