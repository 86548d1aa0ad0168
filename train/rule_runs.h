// The EM runs of training, one per blocking rule (docs/matching.md, "Training a
// model"): each rule's candidate pairs as comparison patterns, the types
// the rule blocks on left out (their agreement was chosen by the
// blocking), m estimated by EM with u fixed, and the runs pooled: per level
// the expected matching pairs summed over the runs that estimated its type.
// Pure; thread-safe.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "train/blocking_keys.h"
#include "train/em.h"
#include "train/pair_levels.h"
#include "train/training.h"

namespace idres::train {

struct RuleSample {
  RuleRun run;
  std::vector<bool> active;  // per type: estimated from these pairs
  std::vector<PatternCount> patterns;
};

// Every rule's candidate pairs (sampled down to options.max_rule_pairs);
// rules that make none are named in `empty` instead.
std::vector<RuleSample> SampleRules(const RecordTable& table, const BlockingKeys& keys,
                                    const Model& model, const PairLevels& levels,
                                    const TrainOptions& options, std::vector<std::string>* empty);

struct Pooled {
  LevelTable match_pairs;                           // expected, per type and level
  std::vector<std::vector<std::uint64_t>> reached;  // candidate pairs, per type and level
  std::vector<std::vector<std::string>> rules;      // per type, the runs that estimated it
};

// Runs EM on each usable sample from `m` (or from the pairs' agreement,
// EmStart::from_agreement), with `u` fixed; records each run's
// convergence in its RuleRun. Or why not: a run that did not converge.
std::variant<Pooled, std::string> RunRules(std::vector<RuleSample>& samples, const LevelTable& m,
                                           bool from_agreement, const LevelTable& u,
                                           const Prior& prior, const TrainOptions& options);

// m per level from the pooled runs; a level no candidate pair reached keeps
// `start`'s. One the matches never reached counts as half a matching pair:
// a weight against, as strong as the data can say, never minus infinity.
LevelTable PooledM(const Pooled& pooled, const LevelTable& start);

}  // namespace idres::train
