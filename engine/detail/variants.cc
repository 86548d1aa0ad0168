#include "engine/detail/variants.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "engine/detail/merge_helpers.h"

namespace idres::detail {

bool Variants::Add(const LockPlanner& planner, std::vector<Identifier> values,
                   const std::vector<std::int64_t>* keys) {
  for (const Variant& v : list_) {
    if (v.values == values) return false;
  }
  bool truncated = false;
  Variant v;
  v.keys =
      keys != nullptr ? *keys : planner.MatchKeys(values, planner.model().max_keys, &truncated);
  v.values = std::move(values);
  list_.push_back(std::move(v));
  return true;
}

void Variants::AddAll(const Variants& other) {
  for (const Variant& o : other.list_) {
    const bool held = std::any_of(list_.begin(), list_.end(),
                                  [&](const Variant& v) { return v.values == o.values; });
    if (!held) list_.push_back(o);
  }
}

std::vector<std::int64_t> Variants::Keys() const {
  std::vector<std::int64_t> keys;
  for (const Variant& v : list_) keys.insert(keys.end(), v.keys.begin(), v.keys.end());
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  if (keys.size() > kMaxPersonMatchKeys) {
    spdlog::warn("a person holds more than {} blocking keys; the rest are not indexed",
                 kMaxPersonMatchKeys);
    keys.resize(kMaxPersonMatchKeys);
  }
  return keys;
}

std::vector<std::vector<Identifier>> Variants::MetBy(const LockPlan& plan,
                                                     const KeyUsable& key_usable,
                                                     const ValueUsable& value_usable) const {
  std::vector<std::vector<Identifier>> out;
  for (const Variant& v : list_) {
    const bool by_key = std::any_of(plan.match_keys.begin(), plan.match_keys.end(), [&](auto k) {
      return std::binary_search(v.keys.begin(), v.keys.end(), k) && key_usable(k);
    });
    const bool by_value =
        by_key || std::any_of(plan.lookups.begin(), plan.lookups.end(), [&](const Identifier& id) {
          return std::binary_search(v.values.begin(), v.values.end(), id) && value_usable(id);
        });
    if (by_key || by_value) out.push_back(v.values);
  }
  return out;
}

std::vector<std::vector<Identifier>> Variants::MetBy(const Variant& record, const Model& model,
                                                     const KeyUsable& key_usable,
                                                     const ValueUsable& value_usable) const {
  LockPlan plan;
  plan.match_keys = record.keys;
  for (const Identifier& v : record.values) {
    const TypeModel* t = model.Find(v.type);
    if (t != nullptr && (t->strong || t->exclusive)) plan.lookups.push_back(v);
  }
  return MetBy(plan, key_usable, value_usable);
}

Variants VariantsOf(const LockPlanner& planner, std::span<const std::vector<Identifier>> records) {
  Variants out;
  for (const auto& values : records) out.Add(planner, values);
  return out;
}

Variants VariantsOf(const LockPlanner& planner, const StoredPerson& person) {
  if (person.record_values.empty() && !person.identifiers.empty()) {
    Variants out;
    out.Add(planner, person.identifiers);
    return out;
  }
  return VariantsOf(planner, person.record_values);
}

}  // namespace idres::detail
