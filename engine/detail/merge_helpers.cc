#include "engine/detail/merge_helpers.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <tuple>

#include "normalize/lock_key.h"

namespace idres::detail {

NewIdentifiers ToInsert(const std::vector<Identifier>& ids, const Model& model) {
  NewIdentifiers out;
  for (const Identifier& id : ids) {
    out.types.push_back(id.type);
    out.values.push_back(id.value);
    out.unique.push_back(model.Exclusive(id.type));
  }
  return out;
}

std::vector<std::int64_t> PersonLockKeys(const LockPlanner& planner,
                                         const std::vector<Identifier>& ids,
                                         const Variants& variants) {
  std::vector<std::int64_t> keys = variants.Keys();
  for (const Identifier& id : ids) {
    const TypeModel* t = planner.model().Find(id.type);
    if (t != nullptr && (t->strong || t->exclusive)) keys.push_back(LockKey(id));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::string ScoreText(const Score& score) {
  std::string out;
  char weight[32];
  for (const Comparison& c : score.comparisons) {
    if (!c.counted) continue;
    std::snprintf(weight, sizeof weight, "%+.1f", c.weight);
    out += (out.empty() ? "" : ", ") + c.type + " " + c.level + " " + weight;
  }
  std::snprintf(weight, sizeof weight, "%.1f", score.total);
  return out + (out.empty() ? "= " : " = ") + weight;
}

Traits MergedTraits(const std::vector<const StoredPerson*>& persons, const Traits& record) {
  std::vector<const StoredPerson*> order = persons;
  std::sort(order.begin(), order.end(), [](const StoredPerson* a, const StoredPerson* b) {
    return std::tie(a->updated_at, a->id) < std::tie(b->updated_at, b->id);
  });
  Traits merged;
  for (const StoredPerson* p : order) {
    for (const auto& [k, v] : p->traits) merged[k] = v;
  }
  for (const auto& [k, v] : record) merged[k] = v;
  return merged;
}

std::vector<Identifier> OwnValues(std::span<const Identifier> record, const MatchDecision& d,
                                  std::vector<Rejection>& rejected) {
  std::vector<Identifier> ids;
  for (const Identifier& id : record) {
    if (std::find(d.held_elsewhere.begin(), d.held_elsewhere.end(), id) != d.held_elsewhere.end()) {
      rejected.push_back({id.type, id.value, "belongs to another person"});
    } else {
      ids.push_back(id);
    }
  }
  return ids;
}

MergePlan PlanMerge(const std::vector<const StoredPerson*>& matched,
                    const std::vector<Identifier>& ids, const Traits& traits) {
  MergePlan plan;
  std::set<Identifier> held;
  for (const StoredPerson* p : matched) held.insert(p->identifiers.begin(), p->identifiers.end());
  for (const Identifier& id : ids) {
    if (!held.contains(id)) plan.fresh.push_back(id);
  }
  held.insert(plan.fresh.begin(), plan.fresh.end());
  plan.all.assign(held.begin(), held.end());
  plan.traits = MergedTraits(matched, traits);
  plan.unchanged =
      matched.size() == 1 && plan.fresh.empty() && plan.traits == matched.front()->traits;
  return plan;
}

std::optional<std::string> TraitsOverCap(const std::vector<const StoredPerson*>& matched,
                                         const MergePlan& plan, std::size_t cap) {
  const std::size_t held = MergedTraits(matched, {}).size();
  if (plan.traits.size() <= std::max(cap, held)) return std::nullopt;
  return "the person would hold " + std::to_string(plan.traits.size()) + " traits (at most " +
         std::to_string(cap) + ")";
}

}  // namespace idres::detail
