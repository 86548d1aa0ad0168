#include "train/prior.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "matcher/comparisons.h"

namespace idres::train {
namespace {

using Holders = std::vector<std::pair<std::uint64_t, std::uint32_t>>;

// One part of the rule: which records agree on what (a key per value or
// value combination they hold).
struct Part {
  std::vector<std::uint16_t> types;  // all must agree
  Holders holders;
};

bool Share(const RecordTable& table, std::size_t a, std::size_t b, std::uint16_t type) {
  const auto x = table.Values(a), y = table.Values(b);
  for (const Value& v : x) {
    if (v.type == type && std::binary_search(y.begin(), y.end(), v)) return true;
  }
  return false;
}

bool Agree(const RecordTable& table, std::size_t a, std::size_t b, const Part& part) {
  return std::all_of(part.types.begin(), part.types.end(),
                     [&](std::uint16_t t) { return Share(table, a, b, t); });
}

std::vector<Part> Parts(const RecordTable& table, const Model& model) {
  std::vector<Part> parts;
  std::optional<std::uint16_t> name, date;
  for (std::uint16_t t = 0; t < table.types().size(); ++t) {
    const TypeModel& type = *model.Find(table.types()[t]);
    if (type.strong) parts.push_back({{t}, {}});
    if (type.comparison == ComparisonKind::kName && !name) name = t;
    if (type.comparison == ComparisonKind::kBirthDate && !date) date = t;
  }
  if (name && date) parts.push_back({{*name, *date}, {}});
  for (std::uint32_t r = 0; r < table.size(); ++r) {
    for (Part& part : parts) {
      std::vector<std::uint64_t> keys{0};
      for (std::uint16_t t : part.types) {
        std::vector<std::uint64_t> next;
        for (const Value& v : table.Values(r)) {
          if (v.type != t) continue;
          for (std::uint64_t k : keys) next.push_back(k * 0x100000001b3ULL + v.id + 1);
        }
        keys = std::move(next);
      }
      for (std::uint64_t k : keys) part.holders.emplace_back(k, r);
    }
  }
  for (Part& part : parts) std::sort(part.holders.begin(), part.holders.end());
  return parts;
}

// The distinct pairs (a << 32 | b, a < b) of records sharing a key held by
// at most `cap` records.
std::vector<std::uint64_t> PairsOf(const Holders& h, std::size_t cap) {
  std::vector<std::uint64_t> pairs;
  for (std::size_t i = 0; i < h.size();) {
    std::size_t j = i;
    while (j < h.size() && h[j].first == h[i].first) ++j;
    for (std::size_t x = i; x < j && j - i <= cap; ++x) {
      for (std::size_t y = x + 1; y < j; ++y) {
        pairs.push_back(std::uint64_t{h[x].second} << 32 | h[y].second);
      }
    }
    i = j;
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

}  // namespace

Prior EstimatePrior(const RecordTable& table, const Model& model, double recall) {
  Prior prior;
  prior.recall = recall;
  const double n = static_cast<double>(table.size());
  prior.all_pairs = n * (n - 1) / 2;
  const std::vector<Part> parts = Parts(table, model);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    for (const std::uint64_t pair : PairsOf(parts[p].holders, model.key_cap)) {
      const std::size_t a = pair >> 32, b = pair & 0xffffffffU;
      // A pair that an earlier part already called a match counts once.
      const bool earlier =
          std::any_of(parts.begin(), parts.begin() + static_cast<std::ptrdiff_t>(p),
                      [&](const Part& q) { return Agree(table, a, b, q); });
      if (!earlier) ++prior.rule_pairs;
    }
  }
  if (prior.all_pairs > 0) {
    prior.lambda = std::min(1.0, static_cast<double>(prior.rule_pairs) / recall / prior.all_pairs);
  }
  return prior;
}

}  // namespace idres::train
