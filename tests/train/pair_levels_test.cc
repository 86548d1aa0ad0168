#include "train/pair_levels.h"

#include <catch2/catch.hpp>

#include "matcher/comparisons.h"

namespace idres::train {
namespace {

std::size_t TypeIndex(const RecordTable& table, const std::string& type) {
  for (std::size_t t = 0; t < table.types().size(); ++t) {
    if (table.types()[t] == type) return t;
  }
  FAIL("no type " + type);
  return 0;
}

std::size_t LevelIndex(ComparisonKind kind, const std::string& level) {
  const auto& names = LevelNames(kind);
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), level) - names.begin());
}

TEST_CASE("a pair's pattern holds per type both hold the best level of their values", "[train]") {
  const Model model = Model::Defaults();
  RecordTable table(model);
  table.Add(std::vector<Identifier>{{"birth_date", "1980-01-02"},
                                    {"city", "berlin"},
                                    {"email", "a@example.org"},
                                    {"email", "anna.weber@example.org"}});
  table.Add(std::vector<Identifier>{
      {"birth_date", "1980-01-03"}, {"email", "anna.weber@example.org"}, {"name", "anna weber"}});
  const PairLevels levels(table, model);
  std::vector<std::uint8_t> pattern(levels.types());
  levels.Levels(0, 1, pattern);
  CHECK(pattern[TypeIndex(table, "email")] == 0);  // the better of two
  CHECK(pattern[TypeIndex(table, "birth_date")] ==
        LevelIndex(ComparisonKind::kBirthDate, "one_off"));
  CHECK(pattern[TypeIndex(table, "city")] == kNotCompared);  // one side only
  CHECK(pattern[TypeIndex(table, "name")] == kNotCompared);
  std::vector<std::uint8_t> other(levels.types());
  levels.Levels(1, 0, other);
  CHECK(other == pattern);
}

TEST_CASE("a value against itself reaches the level its comparison gives it", "[train]") {
  const Model model = Model::Defaults();
  RecordTable table(model);
  // A date known by its year alone agrees only on the year, even with itself.
  table.Add(std::vector<Identifier>{{"birth_date", "1850-01-01"}});
  table.Add(std::vector<Identifier>{{"birth_date", "1850-01-01"}});
  const PairLevels levels(table, model);
  std::vector<std::uint8_t> pattern(levels.types());
  levels.Levels(0, 1, pattern);
  CHECK(pattern[TypeIndex(table, "birth_date")] ==
        CompareValues(ComparisonKind::kBirthDate, "1850-01-01", "1850-01-01"));
}

}  // namespace
}  // namespace idres::train
