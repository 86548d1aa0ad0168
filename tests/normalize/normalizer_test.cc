#include "normalize/normalizer.h"

#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "normalize/lock_key.h"

namespace {

using idres::Identifier;
using idres::Normalizer;
using idres::NormalizerConfig;
using idres::NormalizerKind;
using idres::Rejection;

// The types these tests name, each as the built-in model has it (the model
// is the one table; normalize/ does not know it).
NormalizerConfig Config() {
  NormalizerConfig config = NormalizerConfig::Defaults();
  config.kinds = {
      {"email", NormalizerKind::kEmail},        {"phone", NormalizerKind::kPhone},
      {"cookie", NormalizerKind::kOpaque},      {"device_id", NormalizerKind::kOpaque},
      {"customer_id", NormalizerKind::kOpaque}, {"name", NormalizerKind::kName},
      {"birth_date", NormalizerKind::kDate},    {"postal_code", NormalizerKind::kPostalCode},
      {"city", NormalizerKind::kText},          {"organization", NormalizerKind::kOrganization}};
  return config;
}

const Normalizer& Default() {
  static const Normalizer normalizer(Config());
  return normalizer;
}

Rejection Reject(std::string_view type, const std::string& value) {
  const auto result = Default().Normalize(type, value);
  REQUIRE(std::holds_alternative<Rejection>(result));
  return std::get<Rejection>(result);
}

Identifier Accept(const Normalizer& n, std::string_view type, std::string_view value,
                  std::string_view region = {}) {
  const auto result = n.Normalize(type, value, region);
  if (const auto* r = std::get_if<Rejection>(&result)) FAIL(r->reason);
  return std::get<Identifier>(result);
}

// For threads, where Catch2 assertions are not safe: the value, or "" when rejected.
std::string ValueOf(std::string_view type, std::string_view value) {
  const auto result = Default().Normalize(type, value);
  const auto* id = std::get_if<Identifier>(&result);
  return id ? id->value : std::string();
}

}  // namespace

TEST_CASE("the default types map to their kinds", "[normalize]") {
  const Normalizer& n = Default();
  CHECK(Accept(n, "email", " Anna@Example.com") == Identifier{"email", "anna@example.com"});
  CHECK(Accept(n, "phone", "0170 1234567", "DE") == Identifier{"phone", "+491701234567"});
  CHECK(Accept(n, "cookie", " 7f3a ").value == "7f3a");
  CHECK(Accept(n, "device_id", "AbC").value == "AbC");
  CHECK(Accept(n, "customer_id", "C-42").value == "C-42");
  CHECK(Accept(n, "name", "  José  MÜLLER ").value == "jose muller");
  CHECK(Accept(n, "birth_date", "19900704").value == "1990-07-04");
  CHECK(Accept(n, "postal_code", "sw1a 1aa").value == "SW1A1AA");
  CHECK(Accept(n, "city", " Kingston-upon-HULL ").value == "kingston-upon-hull");
  CHECK(Accept(n, "city", "Washington, D.C.").value == "washington, d.c.");  // no name order
  CHECK(Accept(n, "organization", "ACME Widgets Ltd.").value == "acme widgets ltd");
  CHECK(Accept(n, "organization", "Acme Widgets Limited").value == "acme widgets ltd");
  CHECK(Accept(n, "organization", "Müller G.m.b.H.").value == "muller gmbh");
  CHECK(Accept(n, "organization", "Aktiebolaget Volvo").value == "ab volvo");
  CHECK(Accept(n, "organization", "Smith & Sons Gesellschaft mit beschränkter Haftung").value ==
        "smith and sons gmbh");
  CHECK(Accept(n, "organization", "Public Joint Stock Company Gazprom").value == "pjsc gazprom");
  CHECK(Accept(n, "organization", "ПАО Газпром").value == "pao gazprom");
  CHECK(Accept(n, "organization", "中国银行股份有限公司").value == "zhong guo yin xing co ltd");
  CHECK(Accept(n, "email", "\"Ann Lee\" <ann.lee@example.org>").value == "ann.lee@example.org");
  CHECK(n.KnowsType("email"));
  CHECK_FALSE(n.KnowsType("shoe_size"));
}

TEST_CASE("configuration: kinds, region, validity, folding", "[normalize]") {
  NormalizerConfig config = Config();
  config.default_region = "DE";
  config.require_valid_phone = true;
  config.email_folding_domains = {"GMail.com"};  // compared case-insensitively
  config.kinds["mobile"] = NormalizerKind::kPhone;
  const Normalizer n(config);
  CHECK(Accept(n, "mobile", "0170 1234567") == Identifier{"mobile", "+491701234567"});
  CHECK(Accept(n, "email", "a.b+c@gmail.com").value == "ab@gmail.com");
  const auto invalid = n.Normalize("phone", "+49 123 4567890");
  REQUIRE(std::holds_alternative<Rejection>(invalid));
}

TEST_CASE("a rejection carries type, raw input and reason", "[normalize]") {
  const Rejection r = Reject("phone", "not a phone");
  CHECK(r == Rejection{"phone", "not a phone", "not a phone number"});
  CHECK(Reject("shoe_size", "42") == Rejection{"shoe_size", "42", "unknown identifier type"});
}

TEST_CASE("hostile values come back as rejections", "[normalize]") {
  const std::string big(10 * 1024 * 1024, 'a');
  const std::pair<std::string, std::string> hostile[] = {
      {big + "@example.com", "the value is longer than 1024 bytes"},
      {std::string(1025, ' '), "the value is longer than 1024 bytes"},
      {std::string("an\0na@example.com", 17), "the value contains a control character (at byte 2)"},
      {"anna\x1b@example.com", "the value contains a control character (at byte 4)"},
      {"anna\x7f@example.com", "the value contains a control character (at byte 4)"},
      {"anna\xc2\x80@example.com", "the value contains a control character (at byte 4)"},  // U+0080
      {"\xc0\xaf@example.com", "the value is not valid UTF-8 (at byte 0)"},          // overlong '/'
      {"ab\xe0\x80\xaf@example.com", "the value is not valid UTF-8 (at byte 2)"},    // overlong
      {"\xed\xa0\x80@example.com", "the value is not valid UTF-8 (at byte 0)"},      // surrogate
      {"\xed\xbf\xbf@example.com", "the value is not valid UTF-8 (at byte 0)"},      // surrogate
      {"\xf4\x90\x80\x80@example.com", "the value is not valid UTF-8 (at byte 0)"},  // > U+10FFFF
      {"\xff@example.com", "the value is not valid UTF-8 (at byte 0)"},
      {"anna@example.co\xc3", "the value is not valid UTF-8 (at byte 15)"},  // truncated
      {"\xe2\x82@example.com", "the value is not valid UTF-8 (at byte 0)"},  // truncated, 3 bytes
      {"a\x80@example.com", "the value is not valid UTF-8 (at byte 1)"},     // lone continuation
      {"\xf8\x88\x80\x80\x80@example.com", "the value is not valid UTF-8 (at byte 0)"},  // 5 bytes
  };
  for (const char* type : {"email", "phone", "cookie", "name", "birth_date", "postal_code"}) {
    for (const auto& [input, reason] : hostile) {
      INFO(type << " " << input.substr(0, 40));
      const Rejection r = Reject(type, input);
      CHECK(r.reason == reason);
      CHECK(r.input == input);
      CHECK(r.type == type);
    }
  }
}

TEST_CASE("a value that grows past 1024 bytes when normalized is rejected", "[normalize]") {
  // Found by fuzz_normalize_name: each CJK character becomes a syllable and a space.
  std::string han;
  for (int i = 0; i < 300; ++i) han += "山";  // 900 bytes in, "shan shan ..." 1499 out
  CHECK(Reject("name", han).reason == "the normalized value is longer than 1024 bytes");
}

TEST_CASE("no normalized value contains a control character", "[normalize]") {
  // Whitespace controls are allowed in input (trimmed or collapsed) but never survive.
  CHECK(Accept(Default(), "name", "\tAnna\r\nMaria\v").value == "anna maria");
  CHECK(Accept(Default(), "email", "\n anna@example.com\r\n").value == "anna@example.com");
  CHECK(Reject("cookie", "a\tb").reason == "the id contains a control character");
  CHECK(Reject("email", "an\tna@example.com").reason ==
        "the email local part contains whitespace or a control character");
}

TEST_CASE("one Normalizer serves many threads", "[normalize]") {
  REQUIRE(ValueOf("name", "Ελένη") == "elene");
  std::vector<std::thread> threads;
  std::vector<int> wrong(6, 0);
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([t, &wrong] {
      for (int i = 0; i < 200; ++i) {
        if (ValueOf("name", "Ελένη") != "elene") ++wrong[t];
        if (ValueOf("email", "ANNA@BÜCHER.DE") != "anna@xn--bcher-kva.de") ++wrong[t];
        if (ValueOf("phone", "+49 170 1234567") != "+491701234567") ++wrong[t];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int count : wrong) CHECK(count == 0);
}
