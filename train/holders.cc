#include "train/holders.h"

#include <algorithm>
#include <numeric>

namespace idres::train {
namespace {

class UnionFind {
 public:
  explicit UnionFind(std::size_t n) : parent_(n) {
    std::iota(parent_.begin(), parent_.end(), std::uint32_t{0});
  }
  std::uint32_t Root(std::uint32_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void Join(std::uint32_t a, std::uint32_t b) {
    a = Root(a);
    b = Root(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<std::uint32_t> parent_;
};

}  // namespace

std::vector<std::uint32_t> EstimatedHolders(
    const RecordTable& table, const BlockingKeys& keys,
    const std::function<bool(std::size_t, std::size_t)>& matches) {
  UnionFind persons(table.size());
  for (std::size_t r = 0; r < keys.rules(); ++r) {
    keys.ForEachPair(r, true, 1.0, 0, [&](std::size_t a, std::size_t b) {
      if (matches(a, b)) persons.Join(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b));
    });
  }
  // (value, person) once each, then counted per value.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> held;
  for (std::size_t r = 0; r < table.size(); ++r) {
    const std::uint32_t person = persons.Root(static_cast<std::uint32_t>(r));
    for (const Value& v : table.Values(r)) held.emplace_back(v.id, person);
  }
  std::sort(held.begin(), held.end());
  held.erase(std::unique(held.begin(), held.end()), held.end());
  std::vector<std::uint32_t> out(table.dictionary().size(), 0);
  for (const auto& [value, person] : held) ++out[value];
  return out;
}

}  // namespace idres::train
