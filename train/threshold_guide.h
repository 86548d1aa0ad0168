// Threshold guidance: how many candidate pairs of the data a fitted model
// puts at or above each threshold, and how many of those it expects to be
// matches, so a person can choose the threshold knowing its cost. Each
// distinct candidate pair (over all blocking rules) is scored as the
// matcher scores it (Matcher::Compare, term frequency from the records);
// its chance of being a match is the score plus the prior's log-odds. The
// suggestion is the lowest threshold from which the estimated precision
// stays at or above the target.
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "matcher/model.h"
#include "train/blocking_keys.h"
#include "train/record_table.h"

namespace idres::train {

struct ThresholdRow {
  double threshold = 0;
  double pairs = 0;      // candidate pairs scoring at or above it
  double precision = 0;  // expected share of matches among them
  double recall = 0;     // expected share of the candidate pairs' matches they hold
};

struct ThresholdGuide {
  std::vector<ThresholdRow> rows;  // ascending thresholds
  std::optional<double> suggested;
  double min_precision = 0;
  std::uint64_t scored = 0;      // pairs scored
  std::uint64_t candidates = 0;  // distinct candidate pairs (scored, or sampled from)
};

struct GuideOptions {
  double min_precision = 0.99;
  std::uint64_t max_pairs = 1'000'000;  // scored at most; more are sampled by the seed
  std::uint64_t seed = 1;
};

ThresholdGuide GuideThreshold(const RecordTable& table, const BlockingKeys& keys,
                              const Model& model, double prior, const GuideOptions& options);

// The guide as printed, the model's current threshold marked.
std::string GuideTable(const ThresholdGuide& guide, double current);

}  // namespace idres::train
