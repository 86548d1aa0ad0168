#include "normalize/lock_key.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace idres {
namespace {

std::string Part(std::string_view type, std::string_view value) {
  std::string part;
  part.reserve(type.size() + 1 + value.size());
  part.append(type).append(1, ':').append(value);
  return part;
}

// OpenSSL 3's one-shot SHA256() looks the algorithm up in the provider store
// on every call (locks and a property query): 2% of a served upsert. The
// fetched EVP_MD is immutable and shared by all threads.
const EVP_MD* Sha256() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md;
}

}  // namespace

std::int64_t KeyOfBytes(std::string_view bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  if (EVP_Digest(bytes.data(), bytes.size(), digest, nullptr, Sha256(), nullptr) != 1) {
    // Only a broken OpenSSL installation gets here; never a silent wrong key.
    throw std::runtime_error("OpenSSL SHA-256 failed");
  }
  std::uint64_t key = 0;
  for (int i = 0; i < 8; ++i) key = (key << 8) | digest[i];
  return static_cast<std::int64_t>(key);  // two's complement, as readBigInt64BE
}

std::int64_t LockKey(std::string_view type, std::string_view value) {
  return KeyOfBytes(Part(type, value));
}

std::int64_t CompositeLockKey(std::span<const Identifier> parts) {
  std::vector<std::string> texts;
  texts.reserve(parts.size());
  for (const Identifier& id : parts) texts.push_back(Part(id.type, id.value));
  std::sort(texts.begin(), texts.end());  // std::string compares bytewise (char_traits<char>)
  std::string joined;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (i > 0) joined.push_back(kCompositeKeySeparator);
    joined += texts[i];
  }
  return KeyOfBytes(joined);
}

}  // namespace idres
