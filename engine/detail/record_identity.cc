#include "engine/detail/record_identity.h"

#include <random>

#include "normalize/lock_key.h"
#include "normalize/utf8.h"

namespace idres::detail {
namespace {

std::optional<std::string> Check(const char* what, const std::string& s, std::size_t max) {
  if (s.size() > max)
    return std::string(what) + " is longer than " + std::to_string(max) + " bytes";
  if (FindInvalidUtf8(s)) return std::string(what) + " is not valid UTF-8";
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) return std::string(what) + " contains a control character";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> ValidateRecordIdentity(const std::string& source,
                                                  const std::string& record_id) {
  if (auto bad = Check("source", source, kMaxSourceBytes)) return bad;
  return Check("record_id", record_id, kMaxRecordIdBytes);
}

std::string GenerateRecordId() {
  // Seeded with 256 bits from the system: two threads or processes never
  // share a sequence (one 32-bit seed would, among a few thousand).
  thread_local std::mt19937_64 random = [] {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device(),
                       device(), device(), device(), device()};
    return std::mt19937_64(seed);
  }();
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id = "g-";
  for (int half = 0; half < 2; ++half) {
    std::uint64_t bits = random();
    for (int i = 0; i < 16; ++i, bits >>= 4) id.push_back(kHex[bits & 0xf]);
  }
  return id;
}

std::int64_t RecordLockKey(const std::string& source, const std::string& record_id) {
  return LockKey("record", source + kCompositeKeySeparator + record_id);
}

}  // namespace idres::detail
