#include "train/value_dictionary.h"

#include <catch2/catch.hpp>
#include <string>

namespace idres::train {
namespace {

TEST_CASE("values are numbered in the order first seen, per type", "[train]") {
  ValueDictionary d;
  CHECK(d.Add(0, "anna") == 0);
  CHECK(d.Add(1, "anna") == 1);  // another type: another value
  CHECK(d.Add(0, "ben") == 2);
  CHECK(d.Add(0, "anna") == 0);
  REQUIRE(d.size() == 3);
  CHECK(d.text(2) == "ben");
  CHECK(d.type(1) == 1);
  CHECK(d.holders(0) == 2);
  CHECK(d.holders(1) == 1);
}

TEST_CASE("the dictionary keeps every value across its growth", "[train]") {
  ValueDictionary d;
  for (int i = 0; i < 20000; ++i) REQUIRE(d.Add(0, "v" + std::to_string(i)) == std::uint32_t(i));
  for (int i = 0; i < 20000; i += 7) {
    REQUIRE(d.Add(0, "v" + std::to_string(i)) == std::uint32_t(i));
    REQUIRE(d.text(static_cast<std::uint32_t>(i)) == "v" + std::to_string(i));
  }
  CHECK(d.size() == 20000);
  CHECK(d.holders(7) == 2);
  CHECK(d.holders(8) == 1);
}

}  // namespace
}  // namespace idres::train
