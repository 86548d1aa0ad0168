#include "api/service/auth.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <array>

namespace idres::api {
namespace {

std::array<unsigned char, SHA256_DIGEST_LENGTH> Digest(std::string_view s) {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> out{};
  SHA256(reinterpret_cast<const unsigned char*>(s.data()), s.size(), out.data());
  return out;
}

}  // namespace

bool BearerMatches(std::string_view authorization, std::string_view token) {
  constexpr std::string_view kScheme = "Bearer ";
  if (authorization.size() < kScheme.size()) return false;
  // The scheme name is case-insensitive (RFC 7235); the token is not.
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    const char a = authorization[i], b = kScheme[i];
    if ((a | 0x20) != (b | 0x20)) return false;
  }
  const auto given = Digest(authorization.substr(kScheme.size()));
  const auto expected = Digest(token);
  return CRYPTO_memcmp(given.data(), expected.data(), given.size()) == 0;
}

}  // namespace idres::api
