#include "normalize/phone.h"

#include <catch2/catch.hpp>

#include <string>

namespace {

using idres::NormalizePhone;
using idres::PhoneOptions;

struct Case {
  const char* input;
  const char* region;
  const char* expected;  // E.164 or the reason
};

void Check(const Case& c, const PhoneOptions& options, bool accepted) {
  idres::InitPhoneLibrary();
  const auto result = NormalizePhone(c.input, c.region, options);
  INFO("input: " << c.input << " region: " << c.region);
  CHECK(result.ok() == accepted);
  CHECK((accepted ? result.value : result.reason) == c.expected);
}

}  // namespace

TEST_CASE("phone golden table: one number, every spelling", "[normalize][phone]") {
  const Case golden[] = {
      {"+49 170 1234567", "", "+491701234567"},
      {"0170 1234567", "DE", "+491701234567"},
      {"0170 1234567", "de", "+491701234567"},
      {"0049-170-1234567", "DE", "+491701234567"},
      {"+49 (0)170 1234567", "", "+491701234567"},
      {"tel:+49-170-1234567", "", "+491701234567"},
      {"\uFF0B\uFF14\uFF19 \uFF11\uFF17\uFF10 \uFF11\uFF12\uFF13\uFF14\uFF15\uFF16\uFF17", "",
       "+491701234567"},                               // full-width
      {"٠١٧٠ ١٢٣٤٥٦٧", "DE", "+491701234567"},         // Arabic-Indic
      {"۰۱۷۰ ۱۲۳۴۵۶۷", "DE", "+491701234567"},         // Eastern Arabic-Indic
      {"+49 170 1234567;ext=5", "", "+491701234567"},  // extension dropped
      {"+1 650 253 0000 ext. 123", "", "+16502530000"},
      {"(650) 253-0000 x 99", "", "+16502530000"},
      {"(650) 253-0000", "", "+16502530000"},    // default region US
      {"+49 123 4567890", "", "+491234567890"},  // possible, not valid
      {"06 6988 2233", "IT", "+390669882233"},   // Italian leading zero is part of the number
      {"+39 06 6988 2233", "", "+390669882233"},
      // 00, the international prefix of most of the world, where the
      // region (US by default: 011) cannot read it.
      {"0049-170-1234567", "", "+491701234567"},
      {"0049-170-1234567", "US", "+491701234567"},
  };
  for (const Case& c : golden) Check(c, PhoneOptions{}, true);
}

TEST_CASE("phone rejections name their reason", "[normalize][phone]") {
  constexpr const char* kNotARegion =
      "the phone number has no country code, and the region is not one (two letters, ISO 3166-1, "
      "e.g. DE)";
  const Case rejected[] = {
      {"hello", "", "not a phone number"},
      {"0000000000", "", "the phone number is all zeros"},
      {"000", "DE", "the phone number is all zeros"},
      {"+49 0000 000000", "", "the phone number is all zeros"},
      {"12", "", "not a possible phone number: too short"},
      {"+49 170 1234567890123456", "", "the phone number is too long"},
      {"+999 1234567", "",
       "the phone number has no valid country code and the region does not supply one"},
      {"0170 1234567", "XX", kNotARegion},
      {"0170 1234567", "D E", kNotARegion},
      {"0170 1234567", "DEU", kNotARegion},
      {"0170 1234567", "EU", kNotARegion},
      // Its own (invalid) country code: the region is not the reason.
      {"+999 1234567", "XX",
       "the phone number has no valid country code and the region does not supply one"},
      {"253 0000", "", "not a possible phone number: only dialable locally (area code missing?)"},
      {"0170 1234567", "", "not a possible phone number: too long"},  // read as a US number
      // Found by fuzz_normalize_phone: E.164 that would not normalize to itself.
      {"0009551615", "EG",
       "the phone number's leading zeros do not survive E.164 (+20009551615 reads back as another "
       "number)"},
  };
  for (const Case& c : rejected) Check(c, PhoneOptions{}, false);
}

TEST_CASE("phone IsValidNumber is required only when configured", "[normalize][phone]") {
  const PhoneOptions strict{"US", true};
  Check({"+49 123 4567890", "", "not a valid phone number (no such number range in its region)"},
        strict, false);
  Check({"+49 170 1234567", "", "+491701234567"}, strict, true);
}

TEST_CASE("phone default region comes from the options", "[normalize][phone]") {
  Check({"0170 1234567", "", "+491701234567"}, PhoneOptions{"DE", false}, true);
  Check({"(650) 253-0000", "US", "+16502530000"}, PhoneOptions{"DE", false}, true);
}

// Found by fuzz_normalize_phone: the E.164 form of this input read back as
// another number, so one number could lock two keys. The canonical form is
// a fixpoint: normalizing it again gives it back.
TEST_CASE("phone normalization is a fixpoint, also for Mexico's mobile token",
          "[normalize][phone]") {
  idres::InitPhoneLibrary();
  const PhoneOptions options{"US", false};
  const auto first = NormalizePhone("005B11U111U11DE1", "DE", options);
  REQUIRE(first.ok());
  CHECK(first.value == "+528111811331");
  const auto again = NormalizePhone(first.value, "", options);
  REQUIRE(again.ok());
  CHECK(again.value == first.value);
  // The same number with the token typed: one key.
  CHECK(NormalizePhone("+52 1 81 1181 1331", "", options).value == first.value);
}
