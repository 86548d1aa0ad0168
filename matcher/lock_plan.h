// LockPlanner: from a record's normalized identifiers, the advisory lock keys
// its upsert takes and the keys its candidate read goes through
// (docs/matching.md, "Keys become locks").
//
// Each value of a strong or exclusive type is looked up and locked alone.
// Each blocking rule of the model contributes one composite key per
// combination of its parts' values (a part derives a value from a type's
// values: a surname's phonetic codes, a birth year, a nickname class ...).
// Blocking keys are both lock keys and match keys: a person stores the
// blocking keys of all its values (table match_keys), the candidate read
// goes through them, and a record and a person that share no key are never
// compared. So two records that could match share a locked key.
//
// Thread-safety: immutable after construction; all methods are const and may
// be called from any number of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "matcher/model.h"
#include "normalize/identifier.h"

namespace idres {

struct LockPlan {
  std::vector<std::int64_t> lock_keys;   // sorted ascending, no duplicates
  std::vector<std::int64_t> match_keys;  // blocking keys, sorted, unique
  std::vector<Identifier> lookups;       // strong and exclusive values, sorted
  std::optional<std::string> error;      // set: the record cannot be planned
};

// A blocking key with what it is made of, for explanations.
struct BlockingKey {
  std::string rule;   // the blocking rule's name
  std::string parts;  // its parts' values, space-separated, e.g. "SM0 1978"
  std::int64_t key = 0;
};

class LockPlanner {
 public:
  explicit LockPlanner(Model model);

  // The plan for a record holding `identifiers` (duplicates allowed). Sets
  // `error` when they would produce more than the model's max_keys keys.
  LockPlan Plan(std::span<const Identifier> identifiers) const;

  // The blocking keys of a person holding `identifiers`, sorted and unique.
  // A person may hold more values than a record; the result is capped at
  // `cap` keys and `*truncated` says whether the cap was hit.
  std::vector<std::int64_t> MatchKeys(std::span<const Identifier> identifiers, std::size_t cap,
                                      bool* truncated) const;

  // The blocking keys of `identifiers` (those Plan's match_keys holds, up
  // to the cap), each with its rule and parts, ordered by rule and parts.
  std::vector<BlockingKey> BlockingKeys(std::span<const Identifier> identifiers) const;

  const Model& model() const { return model_; }

 private:
  Model model_;
};

}  // namespace idres
