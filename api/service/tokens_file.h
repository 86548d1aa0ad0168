// The tokens file of `idres serve --tokens FILE` (docs/access.md, "The tokens
// file"): named tokens, each known by the SHA-256 of the token (never the
// token), with its roles and optional limits. Reading is separate from
// using: ParseTokensFile answers a table or the reason the text is refused,
// and never throws. Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "api/service/access.h"
#include "api/service/auth.h"

namespace idres::api {

struct TokenEntry {
  std::string name;  // letters, digits, '-', '_'; 1 to 64 of them
  TokenDigest sha256{};
  RoleSet roles = 0;    // at least one
  double rate = 0;      // calls per second; 0: unbounded
  int concurrency = 0;  // calls at once; 0: unbounded
};

using TokenTable = std::vector<TokenEntry>;

// The entries of a tokens file's text, in name order; or why it is refused,
// with the line ("line 4: unknown role 'owner'"). Refused: TOML that does
// not parse, a key other than [tokens.NAME]'s sha256, roles, rate and
// concurrency, a bad name, a sha256 that is not 64 hex digits, no role or
// an unknown one, a rate or concurrency that is not positive, one digest
// under two names.
std::variant<TokenTable, std::string> ParseTokensFile(std::string_view text);

// The file at `path`, read and parsed; a refusal names the path.
std::variant<TokenTable, std::string> ReadTokensFile(const std::string& path);

// The entry of `idres serve --auth-token TOKEN`: one token, named
// "auth-token", with the role admin.
TokenEntry AuthTokenEntry(std::string_view token);

// Whether `name` may name a token.
bool ValidTokenName(std::string_view name);

// A fresh random token: "idr_" and 43 base64url characters, 256 bits from
// OpenSSL's RAND_bytes. Throws std::runtime_error when no randomness is to
// be had.
std::string NewToken();

// The lines of a tokens file for `entry` (what `idres token new` prints).
std::string TokensFileEntry(const TokenEntry& entry);

}  // namespace idres::api
