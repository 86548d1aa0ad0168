#include "api/service/auth.h"

#include <openssl/evp.h>

namespace idres::api {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::string_view> BearerToken(std::string_view authorization) {
  constexpr std::string_view kScheme = "Bearer ";
  if (authorization.size() < kScheme.size()) return std::nullopt;
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    const char a = authorization[i], b = kScheme[i];
    if ((a | 0x20) != (b | 0x20)) return std::nullopt;
  }
  return authorization.substr(kScheme.size());
}

TokenDigest DigestOf(std::string_view token) {
  // Fetched once: OpenSSL 3's one-shot SHA256() looks the algorithm up on
  // every call, which costs more than hashing a token.
  static EVP_MD* const kSha256 = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  TokenDigest out{};
  EVP_Digest(token.data(), token.size(), out.data(), nullptr, kSha256, nullptr);
  return out;
}

std::string HexOf(const TokenDigest& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char byte : digest) {
    out += kDigits[byte >> 4];
    out += kDigits[byte & 0xf];
  }
  return out;
}

std::optional<TokenDigest> DigestFromHex(std::string_view hex) {
  TokenDigest out{};
  if (hex.size() != out.size() * 2) return std::nullopt;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int high = HexValue(hex[2 * i]), low = HexValue(hex[2 * i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    out[i] = static_cast<unsigned char>(high * 16 + low);
  }
  return out;
}

}  // namespace idres::api
