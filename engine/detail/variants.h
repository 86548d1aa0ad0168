// Variants: the distinct value sets of one person's records, each with the
// blocking keys of that set alone (docs/matching.md, "Evidence comes from
// records"). A record is compared with a person through the variants it
// meets — shares a blocking key or a strong value with — never through a
// union of everything the person holds; and a person's match keys are the
// union of its variants' keys, so combinations no one record said are not
// keys either. Plain value; one thread. Internal to engine/.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "engine/detail/store.h"
#include "matcher/lock_plan.h"
#include "normalize/identifier.h"

namespace idres::detail {

struct Variant {
  std::vector<Identifier> values;  // sorted, unique
  std::vector<std::int64_t> keys;  // its blocking keys, sorted
};

// Which keys and strong values may bring a candidate (not generic).
using KeyUsable = std::function<bool(std::int64_t)>;
using ValueUsable = std::function<bool(const Identifier&)>;

class Variants {
 public:
  // Adds `values` (sorted) as a variant unless one holds exactly them;
  // whether it was new. `keys`: the values' blocking keys when the caller
  // has them (a record's planned match keys), else they are made here.
  bool Add(const LockPlanner& planner, std::vector<Identifier> values,
           const std::vector<std::int64_t>* keys = nullptr);
  // Adds every variant of `other` (a person merged into this one).
  void AddAll(const Variants& other);

  const std::vector<Variant>& list() const { return list_; }
  bool empty() const { return list_.empty(); }

  // The union of the variants' keys, sorted and unique; capped (with a
  // warning) at kMaxPersonMatchKeys.
  std::vector<std::int64_t> Keys() const;

  // The values of each variant a record planned as `plan` meets: one of
  // its blocking keys that `key_usable` accepts, or one of its strong
  // values that `value_usable` accepts.
  std::vector<std::vector<Identifier>> MetBy(const LockPlan& plan, const KeyUsable& key_usable,
                                             const ValueUsable& value_usable) const;
  // The same for another person's variant `record`.
  std::vector<std::vector<Identifier>> MetBy(const Variant& record, const Model& model,
                                             const KeyUsable& key_usable,
                                             const ValueUsable& value_usable) const;

 private:
  std::vector<Variant> list_;
};

// The variants of the records whose values are `records`.
Variants VariantsOf(const LockPlanner& planner, std::span<const std::vector<Identifier>> records);

// The variants of a stored person: of its records, or, for a person
// without any (written by hand past idres), of its values as one record.
Variants VariantsOf(const LockPlanner& planner, const StoredPerson& person);

}  // namespace idres::detail
