#include "matcher/lock_plan.h"

#include <algorithm>
#include <map>
#include <set>

#include "matcher/weak_sets.h"
#include "normalize/lock_key.h"

namespace idres {
namespace {

using ValuesByType = std::map<std::string, std::set<std::string>, std::less<>>;

ValuesByType GroupByType(std::span<const Identifier> identifiers) {
  ValuesByType grouped;
  for (const Identifier& id : identifiers) grouped[id.type].insert(id.value);
  return grouped;
}

void SortUnique(std::vector<std::int64_t>& keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
}

// Appends one composite key per choice of one value per type of `set`;
// stops (returns false) once `out` would exceed `cap`.
bool AppendCombinations(const ValuesByType& values, const std::vector<std::string>& set,
                        std::size_t cap, std::vector<std::int64_t>& out) {
  std::vector<const std::set<std::string>*> columns;
  for (const std::string& type : set) {
    auto it = values.find(type);
    if (it == values.end()) return true;  // the record lacks a type of the set
    columns.push_back(&it->second);
  }
  std::vector<std::set<std::string>::const_iterator> pos;
  for (const auto* column : columns) pos.push_back(column->begin());
  std::vector<Identifier> parts(set.size());
  while (true) {
    if (out.size() >= cap) return false;
    for (std::size_t i = 0; i < set.size(); ++i) parts[i] = Identifier{set[i], *pos[i]};
    out.push_back(CompositeLockKey(parts));
    // Odometer step over the value columns.
    std::size_t i = 0;
    for (; i < pos.size(); ++i) {
      if (++pos[i] != columns[i]->end()) break;
      pos[i] = columns[i]->begin();
    }
    if (i == pos.size()) return true;
  }
}

}  // namespace

LockPlanner::LockPlanner(MatchConfig config, std::size_t max_combinations)
    : config_(std::move(config)),
      max_combinations_(max_combinations),
      weak_sets_(MinimalWeakSets(config_)) {}

LockPlan LockPlanner::Plan(std::span<const Identifier> identifiers) const {
  LockPlan plan;
  for (const Identifier& id : identifiers) {
    const TypeRule* rule = config_.Find(id.type);
    if (rule == nullptr) continue;  // takes no part in matching
    if (rule->unique || IsStrong(config_, id.type)) {
      plan.lookups.push_back(id);
      plan.lock_keys.push_back(LockKey(id));
    }
  }
  std::sort(plan.lookups.begin(), plan.lookups.end());
  plan.lookups.erase(std::unique(plan.lookups.begin(), plan.lookups.end()), plan.lookups.end());

  const ValuesByType values = GroupByType(identifiers);
  for (const auto& set : weak_sets_) {
    if (!AppendCombinations(values, set, max_combinations_ + 1, plan.match_keys) ||
        plan.match_keys.size() > max_combinations_) {
      plan.error = "too many combinations of weak identifiers (more than " +
                   std::to_string(max_combinations_) + "); send fewer names, dates or postal codes";
      return plan;
    }
  }
  SortUnique(plan.match_keys);
  plan.lock_keys.insert(plan.lock_keys.end(), plan.match_keys.begin(), plan.match_keys.end());
  SortUnique(plan.lock_keys);
  return plan;
}

std::vector<std::int64_t> LockPlanner::MatchKeys(std::span<const Identifier> identifiers,
                                                 std::size_t cap, bool* truncated) const {
  const ValuesByType values = GroupByType(identifiers);
  std::vector<std::int64_t> keys;
  bool complete = true;
  for (const auto& set : weak_sets_) {
    if (!AppendCombinations(values, set, cap, keys)) {
      complete = false;
      break;
    }
  }
  SortUnique(keys);
  if (truncated != nullptr) *truncated = !complete;
  return keys;
}

}  // namespace idres
