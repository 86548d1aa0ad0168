#include "normalize/email.h"

#include <catch2/catch.hpp>

#include <string>

#include "normalize/detail/email_domain.h"

namespace {

using idres::EmailOptions;
using idres::NormalizeEmail;

std::string Accept(const std::string& input, const EmailOptions& options = {}) {
  const auto result = NormalizeEmail(input, options);
  INFO("input: " << input << " reason: " << result.reason);
  REQUIRE(result.ok());
  return result.value;
}

std::string Reason(const std::string& input, const EmailOptions& options = {}) {
  const auto result = NormalizeEmail(input, options);
  INFO("input: " << input << " value: " << result.value);
  REQUIRE_FALSE(result.ok());
  return result.reason;
}

}  // namespace

TEST_CASE("email golden table", "[normalize][email]") {
  const std::pair<const char*, const char*> golden[] = {
      {"anna@example.com", "anna@example.com"},
      {"Anna@Example.COM", "anna@example.com"},
      {"  anna@example.com \t", "anna@example.com"},
      {"\u3000anna@example.com\u00a0", "anna@example.com"},
      {"ANNA@BÜCHER.DE", "anna@xn--bcher-kva.de"},
      {"anna@bücher.de", "anna@xn--bcher-kva.de"},
      {"anna@xn--bcher-kva.de", "anna@xn--bcher-kva.de"},
      {"ａｎｎａ＠ｅｘａｍｐｌｅ．ｃｏｍ", "anna@example.com"},
      {"anna@EXAMPLE。COM", "anna@example.com"},
      {"ÄRGER@Example.com", "ärger@example.com"},
      {"\uFB00@example.com", "ff@example.com"},
      {"İstanbul@example.com", "i\u0307stanbul@example.com"},
      {"anna@שלום.com", "anna@xn--9dbne9b.com"},
      {"anna@例え.テスト", "anna@xn--r8jz45g.xn--zckzah"},
      {"First.Last+news@gmail.com", "first.last+news@gmail.com"},  // folding is opt-in
      // A mailbox with a display name is its address.
      {"\"Ann Lee\" <ann.lee@example.org>", "ann.lee@example.org"},
      {"Ann Lee <Ann.Lee@Example.org>", "ann.lee@example.org"},
      {"\"Lee, Ann\" <ann.lee@example.org>", "ann.lee@example.org"},
      {" <ann.lee@example.org> ", "ann.lee@example.org"},
      // A link's address, and a fully qualified domain.
      {"mailto:ann.lee@example.org", "ann.lee@example.org"},
      {"MAILTO:mailto:ann.lee@example.org", "ann.lee@example.org"},
      {"MAILTO:Ann.Lee@example.org", "ann.lee@example.org"},
      {"ann.lee@example.org.", "ann.lee@example.org"},
  };
  for (const auto& [input, expected] : golden) CHECK(Accept(input) == expected);
}

TEST_CASE("email gmail-style folding applies only to configured domains", "[normalize][email]") {
  const EmailOptions gmail{{"gmail.com", "googlemail.com"}};
  CHECK(Accept("First.Last+news@Gmail.com", gmail) == "firstlast@gmail.com");
  CHECK(Accept("f.i.r.s.t@googlemail.com", gmail) == "first@googlemail.com");
  CHECK(Accept("First.Last+news@example.com", gmail) == "first.last+news@example.com");
  CHECK(Reason("+news@gmail.com", gmail) == "the email local part is empty after folding");
}

TEST_CASE("email rejections name their reason", "[normalize][email]") {
  const std::string l64(64, 'a'), l65(65, 'a'), d63(63, 'b'), d64(64, 'b');
  CHECK(Accept(l64 + "@example.com") == l64 + "@example.com");
  CHECK(Accept("anna@" + d63 + ".com") == "anna@" + d63 + ".com");
  const std::pair<std::string, std::string> rejected[] = {
      {"", "the email address is empty"},
      {"   ", "the email address is empty"},
      {"annaexample.com", "the email address has no @"},
      {"a@b@c.com", "the email address has more than one @"},
      {"@example.com", "the email local part (before @) is empty"},
      {l65 + "@example.com", "the email local part is longer than 64 bytes"},
      {"an na@example.com", "the email local part contains whitespace or a control character"},
      {"an\u00a0na@example.com", "the email local part contains whitespace or a control character"},
      {"anna@", "the email domain (after @) is empty"},
      {"anna@localhost", "the email domain has no dot"},
      {"anna@example.com..", "the email domain has an empty label"},
      {"anna@.example.com", "the email domain has an empty label"},
      {"anna@example..com", "the email domain has an empty label"},
      {"anna@exa_mple.com", "the email domain contains a character not allowed in domain names"},
      {"anna@ex ample.com", "the email domain contains a character not allowed in domain names"},
      {"anna@-example.com", "an email domain label starts or ends with a hyphen"},
      {"anna@ab--cd.com", "an email domain label has hyphens in positions 3 and 4"},
      {"anna@" + d64 + ".com", "an email domain label is longer than 63 bytes"},
      {"anna@xn--a.com", "the email domain has an invalid punycode (xn--) label"},
      {"anna@a1שלום.com", "the email domain mixes text directions invalidly"},
      {l64 + "@" + d63 + "." + d63 + "." + d63 + ".com",
       "the email address is longer than 254 bytes"},
  };
  for (const auto& [input, reason] : rejected) CHECK(Reason(input) == reason);
}

TEST_CASE("email ASCII fast path agrees with ICU", "[normalize][email]") {
  const char* inputs[] = {"Anna@Example.com", "a@b.c",     "x@ab--cd.com", "x@xn--bcher-kva.de",
                          "x@-a.com",         "x@a-.com",  "x@a_b.com",    "x@example.com.",
                          "X+Y@EXAMPLE.COM",  "x@1.2.3.4", "x@a..b",       "x@0123456789.com"};
  for (const char* input : inputs) {
    INFO(input);
    const auto fast = idres::normalize_detail::NormalizeEmailWith(input, {}, true);
    const auto slow = idres::normalize_detail::NormalizeEmailWith(input, {}, false);
    CHECK(fast.value == slow.value);
    CHECK(fast.reason == slow.reason);
  }
}
