#include "train/blocking_keys.h"

#include <algorithm>

#include "matcher/lock_plan.h"
#include "train/random.h"

namespace idres::train {
namespace {

// One planner per rule: the keys it derives are then known to be the rule's.
std::vector<LockPlanner> PlannerPerRule(const Model& model) {
  std::vector<LockPlanner> out;
  for (const BlockingRule& rule : model.blocking) {
    Model one = model;
    one.blocking = {rule};
    out.emplace_back(std::move(one));
  }
  return out;
}

}  // namespace

BlockingKeys::BlockingKeys(const RecordTable& table, const Model& model)
    : rules_(model.blocking.size()), key_cap_(model.key_cap) {
  const std::vector<LockPlanner> planners = PlannerPerRule(model);
  std::vector<std::uint64_t> all;
  for (std::size_t r = 0; r < table.size(); ++r) {
    const std::vector<Identifier> values = table.Identifiers(r);
    const std::size_t begin = entries_.size();
    for (std::size_t rule = 0; rule < planners.size(); ++rule) {
      bool truncated = false;
      for (std::int64_t key : planners[rule].MatchKeys(values, model.max_keys, &truncated)) {
        entries_.push_back({static_cast<std::uint64_t>(key), static_cast<std::uint32_t>(rule)});
        all.push_back(static_cast<std::uint64_t>(key));
      }
    }
    std::sort(entries_.begin() + static_cast<std::ptrdiff_t>(begin), entries_.end());
    starts_.push_back(entries_.size());
  }
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j] == all[i]) ++j;
    if (j - i > key_cap_) generic_.push_back(all[i]);
    i = j;
  }
}

bool BlockingKeys::Generic(std::uint64_t key) const {
  return std::binary_search(generic_.begin(), generic_.end(), key);
}

std::vector<std::pair<std::uint64_t, std::uint32_t>> BlockingKeys::Holders(std::size_t rule) const {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> out;
  for (std::size_t r = 0; r + 1 < starts_.size(); ++r) {
    for (std::uint64_t i = starts_[r]; i < starts_[r + 1]; ++i) {
      if (entries_[i].rule == rule && !Generic(entries_[i].key)) {
        out.emplace_back(entries_[i].key, static_cast<std::uint32_t>(r));
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::uint64_t BlockingKeys::PairsBefore(std::size_t rule) const {
  const auto holders = Holders(rule);
  std::uint64_t pairs = 0;
  for (std::size_t i = 0; i < holders.size();) {
    std::size_t j = i;
    while (j < holders.size() && holders[j].first == holders[i].first) ++j;
    pairs += (j - i) * (j - i - 1) / 2;
    i = j;
  }
  return pairs;
}

bool BlockingKeys::FirstVisit(std::size_t a, std::size_t b, std::size_t rule, std::uint64_t key,
                              bool first_only) const {
  std::uint64_t i = starts_[a], j = starts_[b];
  while (i < starts_[a + 1] && j < starts_[b + 1]) {
    if (entries_[i].key != entries_[j].key) {
      (entries_[i].key < entries_[j].key ? i : j)++;
      continue;
    }
    const Entry& e = entries_[i];
    ++i;
    ++j;
    if (Generic(e.key)) continue;
    if (e.rule == rule && e.key < key) return false;
    if (first_only && e.rule < rule) return false;
  }
  return true;
}

void BlockingKeys::ForEachPair(std::size_t rule, bool first_only, double keep, std::uint64_t seed,
                               const std::function<void(std::size_t, std::size_t)>& fn) const {
  const auto holders = Holders(rule);
  const std::uint64_t bound = keep < 1 ? static_cast<std::uint64_t>(keep * 0x1.0p64) : UINT64_MAX;
  for (std::size_t i = 0; i < holders.size();) {
    std::size_t j = i;
    while (j < holders.size() && holders[j].first == holders[i].first) ++j;
    for (std::size_t x = i; x < j; ++x) {
      for (std::size_t y = x + 1; y < j; ++y) {
        const std::size_t a = holders[x].second, b = holders[y].second;
        if (keep < 1 && PairHash(seed, a, b) >= bound) continue;
        if (FirstVisit(a, b, rule, holders[i].first, first_only)) fn(a, b);
      }
    }
    i = j;
  }
}

}  // namespace idres::train
