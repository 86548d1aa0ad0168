#include "normalize/lock_key.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace idres {
namespace {

// OpenSSL 3's one-shot SHA256() looks the algorithm up in the provider store
// on every call (locks and a property query): 2% of a served upsert. The
// fetched EVP_MD is immutable and shared by all threads.
const EVP_MD* Sha256() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md;
}

}  // namespace

std::string KeyPart(std::string_view type, std::string_view value) {
  std::string part;
  part.reserve(type.size() + 1 + value.size());
  part.append(type).append(1, ':').append(value);
  return part;
}

std::int64_t KeyOfBytes(std::string_view bytes) {
  // One digest context per thread, reset by each Init: EVP_Digest would
  // allocate and free a context and the provider's state on every key.
  thread_local const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(),
                                                                                 &EVP_MD_CTX_free);
  unsigned char digest[SHA256_DIGEST_LENGTH];
  if (ctx == nullptr || EVP_DigestInit_ex2(ctx.get(), Sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest, nullptr) != 1) {
    // Only a broken OpenSSL installation gets here; never a silent wrong key.
    throw std::runtime_error("OpenSSL SHA-256 failed");
  }
  std::uint64_t key = 0;
  for (int i = 0; i < 8; ++i) key = (key << 8) | digest[i];
  return static_cast<std::int64_t>(key);  // two's complement, as readBigInt64BE
}

std::int64_t LockKey(std::string_view type, std::string_view value) {
  return KeyOfBytes(KeyPart(type, value));
}

std::int64_t CompositeKeyOfParts(std::span<std::string_view> parts) {
  std::sort(parts.begin(), parts.end());  // compares bytewise (char_traits<char>)
  std::string joined;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) joined.push_back(kCompositeKeySeparator);
    joined += parts[i];
  }
  return KeyOfBytes(joined);
}

std::int64_t CompositeLockKey(std::span<const Identifier> parts) {
  std::vector<std::string> texts;
  texts.reserve(parts.size());
  for (const Identifier& id : parts) texts.push_back(KeyPart(id.type, id.value));
  std::vector<std::string_view> views(texts.begin(), texts.end());
  return CompositeKeyOfParts(views);
}

}  // namespace idres
