#include "normalize/address.h"

#include <catch2/catch.hpp>

#include <string>

using idres::NormalizeAddress;

TEST_CASE("address golden table: one address, every spelling", "[normalize][address]") {
  const std::pair<const char*, const char*> golden[] = {
      {"12 Main Street, Apartment 4", "12 main st apt 4"},
      {"12, MAIN ST. APT 4", "12 main st apt 4"},
      {"12 main st # 4", "12 main st apt 4"},
      {"12 Main St #4", "12 main st apt 4"},
      {"  12   main  st   apt 4 ", "12 main st apt 4"},
      {"5 North Avenue", "5 n ave"},
      {"12-14 Wittenoom Crescent 2600", "12-14 wittenoom cres 2600"},
      {"Straße 1", "strasse 1"},
      {"Rue de l'Église 3", "rue de l eglise 3"},
      {"Lane-Cove Road", "ln cove rd"},
      // A country's letters before a postal code go; a block's letter
      // before a short number stays.
      {"Hauptstraße 5, D-10115 Berlin", "hauptstrasse 5 10115 berlin"},
      {"Bahnhofstrasse 1, CH-8001 Zürich", "bahnhofstrasse 1 8001 zurich"},
      {"Flat B-12, 3 Elm Road", "flat b 12 3 elm rd"},
      {"Flat A-1104, Lodha Park, Mumbai 400013", "flat a 1104 lodha park mumbai 400013"},
      {"A-1104, Lodha Park, Mumbai 400013", "a 1104 lodha park mumbai 400013"},
      {"5 Rue de Rivoli, F-75001 Paris", "5 rue de rivoli 75001 paris"},
      {"Hauptstrasse 5, A-1010 Wien", "hauptstrasse 5 1010 wien"},
      {"Rue Neuve 1, B-1000 Bruxelles", "rue neuve 1 1000 bruxelles"},
      {"350 Fifth Avenue, Second Floor", "350 5th ave 2nd fl"},
  };
  for (const auto& [input, expected] : golden) {
    const auto result = NormalizeAddress(input);
    INFO(input << ": " << result.reason);
    REQUIRE(result.ok());
    CHECK(result.value == expected);
    // Canonical: normalizing it again gives it back.
    CHECK(NormalizeAddress(result.value).value == result.value);
  }
}

TEST_CASE("address rejections name their reason", "[normalize][address]") {
  CHECK(NormalizeAddress("   ").reason == "the address is empty");
  CHECK(NormalizeAddress("12 / 14").reason == "the address has no letter");
}
