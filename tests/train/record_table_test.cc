#include "train/record_table.h"

#include <catch2/catch.hpp>

namespace idres::train {
namespace {

TEST_CASE("a record keeps its values of the model's types, once each, sorted", "[train]") {
  RecordTable table(Model::Defaults());
  REQUIRE(table.Add(std::vector<Identifier>{{"name", "anna weber"},
                                            {"shoe_size", "38"},
                                            {"birth_date", "1980-01-02"},
                                            {"name", "anna weber"}}));
  REQUIRE(table.size() == 1);
  CHECK(table.Identifiers(0) ==
        std::vector<Identifier>{{"birth_date", "1980-01-02"}, {"name", "anna weber"}});
  CHECK(table.Values(0).size() == 2);
}

TEST_CASE("a record with no value of the model is not kept", "[train]") {
  RecordTable table(Model::Defaults());
  CHECK_FALSE(table.Add(std::vector<Identifier>{{"shoe_size", "38"}}));
  CHECK_FALSE(table.Add(std::vector<Identifier>{}));
  // The placeholder birth date is no value either (matcher/comparisons.h).
  CHECK_FALSE(table.Add(std::vector<Identifier>{{"birth_date", "1900-01-01"}}));
  CHECK(table.size() == 0);
}

TEST_CASE("the table counts the records holding each value and each type", "[train]") {
  RecordTable table(Model::Defaults());
  table.Add(std::vector<Identifier>{{"city", "berlin"}, {"name", "anna weber"}});
  table.Add(std::vector<Identifier>{{"city", "berlin"}});
  table.Add(std::vector<Identifier>{{"city", "bonn"}, {"city", "berlin"}});
  const std::uint32_t berlin = table.Values(1)[0].id;
  CHECK(table.dictionary().holders(berlin) == 3);
  const std::uint16_t city = table.Values(1)[0].type;
  CHECK(table.types()[city] == "city");
  CHECK(table.Holding(city) == 3);
}

}  // namespace
}  // namespace idres::train
