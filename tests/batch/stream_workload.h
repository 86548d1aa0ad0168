// The records the Kafka tests send: `count` NDJSON records of `persons`
// persons, each holding one or two of its person's four opaque values
// (three cookies and a device id) and the person's one trait. Opaque
// values match on their own and nothing speaks against them, so the
// persons the store ends with do not depend on the order the records are
// applied in: a consumer applying four partitions in parallel must end
// with the store an import of the same records makes. Deterministic.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace idres::testing {

inline std::vector<std::string> StreamWorkload(std::size_t count, std::size_t persons) {
  std::mt19937_64 rng(20240531);
  std::vector<std::string> records;
  records.reserve(count);
  for (std::size_t n = 0; n < count; ++n) {
    const std::size_t k = rng() % persons;
    const auto value = [&](std::uint64_t which) {
      const std::string p = "p" + std::to_string(k);
      return which == 3
                 ? R"({"type":"device_id","value":")" + p + R"(.d"})"
                 : R"({"type":"cookie","value":")" + p + ".c" + std::to_string(which) + R"("})";
    };
    std::string identifiers = value(rng() % 4);
    if (rng() % 2 == 0) identifiers += "," + value(rng() % 4);
    records.push_back(R"({"identifiers":[)" + identifiers + R"(],"traits":{"person":")" +
                      std::to_string(k) + R"("}})");
  }
  return records;
}

// Records n, n + parts, n + 2 * parts, ...: what partition n of `parts` gets.
inline std::vector<std::string> PartitionShare(const std::vector<std::string>& all, std::size_t n,
                                               std::size_t parts) {
  std::vector<std::string> share;
  for (std::size_t i = n; i < all.size(); i += parts) share.push_back(all[i]);
  return share;
}

}  // namespace idres::testing
