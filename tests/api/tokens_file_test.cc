#include "api/service/tokens_file.h"

#include <catch2/catch.hpp>

namespace idres::api {
namespace {

constexpr char kDigest[] = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

std::string Refusal(const std::string& text) {
  const auto parsed = ParseTokensFile(text);
  REQUIRE(std::holds_alternative<std::string>(parsed));
  return std::get<std::string>(parsed);
}

TEST_CASE("A tokens file reads to named entries with digests, roles and limits") {
  const auto parsed = ParseTokensFile(std::string("[tokens.signup-pipeline]\nsha256 = \"") +
                                      kDigest +
                                      "\"\nroles = [\"ingest\", \"read\"]\nrate = 200\n"
                                      "concurrency = 16\n\n[tokens.alice]\nsha256 = \"" +
                                      std::string(64, 'a') + "\"\nroles = [\"steward\"]\n");
  REQUIRE(std::holds_alternative<TokenTable>(parsed));
  const TokenTable& table = std::get<TokenTable>(parsed);
  REQUIRE(table.size() == 2);
  const TokenEntry& pipeline = table[0].name == "signup-pipeline" ? table[0] : table[1];
  CHECK(HexOf(pipeline.sha256) == kDigest);
  CHECK(pipeline.roles == (static_cast<RoleSet>(Role::kIngest) | static_cast<RoleSet>(Role::kRead)));
  CHECK(pipeline.rate == 200);
  CHECK(pipeline.concurrency == 16);
  // The lines `idres token new` prints read back to the same entry.
  const auto again = ParseTokensFile(TokensFileEntry(pipeline));
  REQUIRE(std::holds_alternative<TokenTable>(again));
  CHECK(std::get<TokenTable>(again).front().sha256 == pipeline.sha256);
  CHECK(std::get<TokenTable>(again).front().roles == pipeline.roles);
  CHECK(std::get<TokenTable>(again).front().rate == 200);
  CHECK(std::get<TokenTable>(ParseTokensFile("")).empty());
}

TEST_CASE("A bad tokens file is refused with its line and the reason") {
  const std::string digest = std::string("sha256 = \"") + kDigest + "\"\n";
  CHECK(Refusal("[tokens.a]\n" + digest + "roles = [\"owner\"]\n") ==
        "line 3: unknown role 'owner' (roles: ingest, read, steward, admin)");
  CHECK(Refusal("[tokens.a]\nsha256 = \"abc\"\nroles = [\"read\"]\n") ==
        "line 2: sha256 must be 64 hex digits (the token's SHA-256)");
  CHECK(Refusal("[tokens.a]\n" + digest + "roles = []\n") ==
        "line 3: a token needs at least one role");
  CHECK(Refusal("[tokens.a]\n" + digest) == "line 1: tokens.a has no roles");
  CHECK(Refusal("[tokens.a]\nroles = [\"read\"]\n") == "line 1: tokens.a has no sha256");
  CHECK(Refusal("[tokens.a]\n" + digest + "roles = [\"read\"]\nrate = 0\n") ==
        "line 4: rate must be a positive number of calls per second");
  CHECK(Refusal("[tokens.a]\n" + digest + "roles = [\"read\"]\nconcurrency = 1.5\n") ==
        "line 4: concurrency must be a positive whole number of calls");
  CHECK(Refusal("[tokens.a]\n" + digest + "roles = [\"read\"]\ncolour = 1\n") ==
        "line 4: unknown key 'colour' (keys: sha256, roles, rate, concurrency)");
  CHECK(Refusal("[tokens.a]\n" + digest + "roles = [\"read\"]\n[tokens.b]\n" + digest +
                "roles = [\"read\"]\n") == "line 4: tokens.b has the sha256 of tokens.a");
  CHECK(Refusal("[tokens.\"a b\"]\n" + digest + "roles = [\"read\"]\n") ==
        "line 1: token name 'a b' is not 1-64 letters, digits, '-' or '_'");
  CHECK(Refusal("[other]\nx = 1\n") == "line 1: unknown key 'other' (a file of [tokens.NAME])");
  CHECK_THAT(Refusal("[tokens.a\n"), Catch::StartsWith("line 1: "));
}

TEST_CASE("A new token is idr_ and 43 base64url characters, fresh each time") {
  const std::string a = NewToken(), b = NewToken();
  CHECK(a.size() == 47);
  CHECK(a.rfind("idr_", 0) == 0);
  CHECK(a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 4) ==
        std::string::npos);
  CHECK(a != b);
}

}  // namespace
}  // namespace idres::api
