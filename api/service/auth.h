// The bearer token of a call, and the SHA-256 digest a token is known by
// (the tokens file stores digests, never tokens). Internal to api/. Pure;
// thread-safe.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace idres::api {

using TokenDigest = std::array<unsigned char, 32>;

// The token of `authorization` (the header, verbatim) when it is
// "Bearer <token>" (the scheme in any case, RFC 7235); nullopt otherwise.
std::optional<std::string_view> BearerToken(std::string_view authorization);

// SHA-256 of `token`.
TokenDigest DigestOf(std::string_view token);

// `digest` as 64 lowercase hex digits, and back (nullopt: not 64 hex digits).
std::string HexOf(const TokenDigest& digest);
std::optional<TokenDigest> DigestFromHex(std::string_view hex);

}  // namespace idres::api
