#include "engine/detail/merge_helpers.h"

#include <spdlog/spdlog.h>
#include <algorithm>
#include <tuple>

namespace idres::detail {

NewIdentifiers ToInsert(const std::vector<Identifier>& ids, const MatchConfig& config) {
  NewIdentifiers out;
  for (const Identifier& id : ids) {
    const TypeRule* rule = config.Find(id.type);
    out.types.push_back(id.type);
    out.values.push_back(id.value);
    out.unique.push_back(rule != nullptr && rule->unique);
  }
  return out;
}

std::vector<std::int64_t> PersonMatchKeys(const LockPlanner& planner,
                                          const std::vector<Identifier>& ids) {
  bool truncated = false;
  auto keys = planner.MatchKeys(ids, kMaxPersonMatchKeys, &truncated);
  if (truncated) {
    spdlog::warn(
        "a person holds more than {} weak value combinations; weak-only matching "
        "of the rest is not indexed",
        kMaxPersonMatchKeys);
  }
  return keys;
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

}  // namespace idres::detail
