// Train: fits a model's m and u to records without labels (docs/matching.md,
// "Training a model"), keeping the start model's types, comparisons,
// levels, blocking rules and thresholds:
//   u   per level, from random pairs of records;
//   m   per level, by expectation–maximisation over the pairs each blocking
//       rule produces, u fixed; a type a rule blocks on is not estimated
//       from that rule's pairs; the runs are pooled;
//   the prior (two random records are one person) from a deterministic
//       rule with a stated recall.
// A level no pair reached keeps its starting number, and the result says
// so. Deterministic: the same records, start model and options give the
// same result.
// Pure (no database, no files); thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "matcher/model.h"
#include "train/blocking_keys.h"
#include "train/prior.h"
#include "train/record_table.h"

namespace idres::train {

struct TrainOptions {
  std::uint64_t seed = 1;
  std::uint64_t random_pairs = 1'000'000;  // drawn for u
  // Most candidate pairs one rule's EM run looks at; a rule making more is
  // sampled down (a fixed share of its pairs, chosen by the seed).
  std::uint64_t max_rule_pairs = 5'000'000;
  double recall = 0.6;          // of the prior's deterministic rule
  std::optional<double> prior;  // set: the prior, instead of the rule's estimate
  int max_iterations = 100;
  double tolerance = 1e-4;
};

struct LevelFit {
  std::string name;
  double m = 0, u = 0;
  double start_m = 0, start_u = 0;
  double match_pairs = 0;          // expected matching pairs at the level, over the runs
  std::uint64_t rule_pairs = 0;    // candidate pairs at the level, over the runs
  std::uint64_t random_pairs = 0;  // random pairs at the level
  double stranger_pairs = 0;       // ... each weighed by its chance of not being a match
  bool m_kept = false;             // no candidate pair reached it: starting m kept
  bool u_kept = false;             // no random pair reached it: starting u kept
  double weight() const;
  double start_weight() const;
};

struct ComparisonFit {
  std::string type;
  std::vector<LevelFit> levels;
  std::vector<std::string> rules;     // the runs that estimated its m
  std::uint64_t random_compared = 0;  // random pairs that both held the type
  double stranger_compared = 0;       // ... each weighed by its chance of not being a match
  double holders = 1;  // persons holding an agreed value (geometric mean): the exact u's divisor
  bool in_data() const { return random_compared > 0; }
};

struct RuleRun {
  std::string rule;
  std::vector<std::string> blocked;   // the types it blocks on: not estimated from it
  std::uint64_t candidate_pairs = 0;  // before the cap
  std::uint64_t pairs = 0;            // looked at
  std::size_t patterns = 0;
  int iterations = 0;
  double last_change = 0;
  double lambda = 0;   // share of matches among its pairs
  std::string unused;  // why its pairs estimated nothing; empty: they did
};

struct Training {
  Model model;                             // the start model with the fitted numbers
  std::vector<ComparisonFit> comparisons;  // every type of the model
  std::vector<RuleRun> runs;               // rules with pairs
  std::vector<std::string> empty_rules;    // rules that made no pair
  Prior prior;
  std::size_t records = 0;
  std::uint64_t random_pairs = 0;
  bool every_pair = false;  // u from every pair, not a sample
};

// The fitted model, or why it cannot be fitted (fewer than two records, no
// candidate pair, a comparison the records hold that no run could
// estimate, EM not converging within the iterations).
// `keys` are the table's under `start`.
std::variant<Training, std::string> Train(const RecordTable& table, const BlockingKeys& keys,
                                          const Model& start, const TrainOptions& options);

}  // namespace idres::train
