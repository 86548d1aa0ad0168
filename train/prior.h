// The prior: the probability that two records drawn at random are one
// person, estimated as Splink does (docs/matching.md, "Training a model"): the
// pairs a strict deterministic rule calls matches, divided by the share of
// true matches the rule is believed to find (its recall), over all pairs.
// The rule: the two records share a value of a strong type, or both a
// name and a birth date (of the types compared as names and as birth
// dates). A value held by more than the model's key_cap records is generic
// and proves nothing.
// Pure; thread-safe.
#pragma once

#include <cstdint>

#include "matcher/model.h"
#include "train/record_table.h"

namespace idres::train {

struct Prior {
  double lambda = 0;             // probability that two random records match
  std::uint64_t rule_pairs = 0;  // pairs the deterministic rule calls matches
  double recall = 0;             // the rule's stated recall
  double all_pairs = 0;          // n (n - 1) / 2
};

// With `recall` in (0, 1]. rule_pairs 0: the rule found nothing.
Prior EstimatePrior(const RecordTable& table, const Model& model, double recall);

}  // namespace idres::train
