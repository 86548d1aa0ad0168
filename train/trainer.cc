#include "train/training.h"

#include <cmath>

#include "train/holders.h"
#include "train/level_tally.h"
#include "train/random_pairs.h"
#include "train/rule_runs.h"

namespace idres::train {
namespace {

// The random pairs, each weighed by the chance that it is not a match
// under m and the prior: a small data set's random pairs hold its matches
// too (one in 250 in a thousand records of 250 people), and they would
// make agreement look common among strangers.
Tally Strangers(const std::vector<PatternCount>& random, const LevelTable& m, const LevelTable& u,
                double prior) {
  const std::vector<bool> all(m.size(), true);
  return Count(random, u,
               [&](const PatternCount& p) { return 1 - MatchPosterior(p, all, m, u, prior); });
}

// The exact level's u as the engine reads it is the chance agreement on a
// value one person holds: the engine multiplies it by the value's holders
// (term frequency). Among random pairs, value v is agreed on in proportion
// to n_v (n_v - 1), n_v the records holding it; per type, the geometric
// mean over those agreements of the persons holding the value (`holders`,
// train/holders.h) is what the exact level's u is divided by.
std::vector<double> MeanHolders(const RecordTable& table,
                                const std::vector<std::uint32_t>& holders) {
  const std::size_t types = table.types().size();
  std::vector<double> log_sum(types, 0.0), weight(types, 0.0), out(types, 1.0);
  const ValueDictionary& values = table.dictionary();
  for (std::uint32_t id = 0; id < values.size(); ++id) {
    const double n = values.holders(id);
    if (n < 2) continue;
    log_sum[values.type(id)] += n * (n - 1) * std::log(static_cast<double>(holders[id]));
    weight[values.type(id)] += n * (n - 1);
  }
  for (std::size_t t = 0; t < types; ++t) {
    if (weight[t] > 0) out[t] = std::exp(log_sum[t] / weight[t]);
  }
  return out;
}

// Persons per value, the candidate pairs grouped by the fitted numbers.
std::vector<std::uint32_t> Holders(const RecordTable& table, const BlockingKeys& keys,
                                   const PairLevels& levels, const LevelTable& m,
                                   const LevelTable& u, double prior) {
  const std::vector<bool> all(m.size(), true);
  PatternCount pair{std::vector<std::uint8_t>(levels.types()), 1};
  return EstimatedHolders(table, keys, [&](std::size_t a, std::size_t b) {
    levels.Levels(a, b, pair.levels);
    return MatchPosterior(pair, all, m, u, prior) >= 0.5;
  });
}

// `m` where the runs estimated it, and elsewhere `u`: a level whose m the
// data never reached weighs nothing when training judges a pair, so the
// starting model's guesses do not steer what the data says.
LevelTable Estimated(const LevelTable& m, const LevelTable& u, const Pooled& pooled) {
  LevelTable out = m;
  for (std::size_t t = 0; t < out.size(); ++t) {
    for (std::size_t l = 0; l < out[t].size(); ++l) {
      if (pooled.reached[t][l] == 0) out[t][l] = u[t][l];
    }
  }
  return out;
}

// What training estimated, per type and level.
struct Estimates {
  Pooled pooled;
  Tally random, strangers;
  std::vector<double> holders;
  LevelTable m, u;
};

// The fits per type, and the model holding them; or why a comparison the
// records hold could not be estimated.
std::optional<std::string> Fit(const RecordTable& table, const Estimates& e, Training& out) {
  for (std::size_t t = 0; t < table.types().size(); ++t) {
    ComparisonFit fit;
    fit.type = table.types()[t];
    fit.rules = e.pooled.rules[t];
    fit.random_compared = static_cast<std::uint64_t>(e.random.compared[t]);
    fit.stranger_compared = e.strangers.compared[t];
    fit.holders = e.holders[t];
    std::uint64_t reached = 0;
    for (Level& level : out.model.types.at(fit.type).levels) {
      const std::size_t l = fit.levels.size();
      LevelFit f{level.name,
                 e.m[t][l],
                 e.u[t][l],
                 level.m,
                 level.u,
                 e.pooled.match_pairs[t][l],
                 e.pooled.reached[t][l],
                 static_cast<std::uint64_t>(e.random.at[t][l]),
                 e.strangers.at[t][l]};
      f.m_kept = f.rule_pairs == 0;
      f.u_kept = f.random_pairs == 0;
      reached += f.rule_pairs;
      level.m = f.m;
      level.u = f.u;
      fit.levels.push_back(std::move(f));
    }
    if (fit.in_data() && reached == 0) {
      return "comparison " + fit.type +
             " has no pairs: the records hold it, but no EM run could estimate it (each rule "
             "with pairs blocks on it or leaves too little else to compare); add a blocking rule "
             "that brings records together without it";
    }
    out.comparisons.push_back(std::move(fit));
  }
  return std::nullopt;
}

}  // namespace

double LevelFit::weight() const { return std::log2(m / u); }
double LevelFit::start_weight() const { return std::log2(start_m / start_u); }

std::variant<Training, std::string> Train(const RecordTable& table, const BlockingKeys& keys,
                                          const Model& start, const TrainOptions& o) {
  if (table.size() < 2) {
    return "no pairs: training needs at least two records with values; there are " +
           std::to_string(table.size());
  }
  Training out;
  out.model = start;
  out.records = table.size();
  const PairLevels levels(table, start);
  std::vector<RuleSample> samples = SampleRules(table, keys, start, levels, o, &out.empty_rules);
  if (samples.empty()) return "no pairs: the blocking rules bring no two records together";
  out.prior = EstimatePrior(table, start, o.recall);
  if (o.prior) out.prior.lambda = *o.prior;
  if (out.prior.lambda <= 0) {
    return "the prior cannot be estimated: no two records share a strong value, or a name and a "
           "birth date; give it with --prior";
  }
  const RandomPairSample sample = SampleRandomPairs(table, levels, o.random_pairs, o.seed);
  out.every_pair = sample.every_pair;
  out.random_pairs = sample.patterns.pairs();
  const std::vector<PatternCount> random = sample.patterns.Sorted();
  const LevelTable start_m = ModelNumbers(start, table, true),
                   start_u = ModelNumbers(start, table, false);
  Estimates e{{}, Count(random, start_u), {}, {}, start_m, {}};
  e.strangers = e.random;
  e.u = Shares(e.random, e.random, start_u);
  // Round one from the pairs' own agreement, u from all random pairs; round
  // two from round one's m, u from the random pairs round one does not take
  // for matches.
  for (int round = 0; round < 2; ++round) {
    if (round == 1) {
      e.strangers = Strangers(random, Estimated(e.m, e.u, e.pooled), e.u, out.prior.lambda);
      e.u = Shares(e.strangers, e.random, start_u);
    }
    auto pooled = RunRules(samples, e.m, round == 0, e.u, out.prior, o);
    if (auto* error = std::get_if<std::string>(&pooled)) return *error;
    e.pooled = std::move(std::get<Pooled>(pooled));
    e.m = PooledM(e.pooled, start_m);
  }
  e.holders = MeanHolders(
      table, Holders(table, keys, levels, Estimated(e.m, e.u, e.pooled), e.u, out.prior.lambda));
  for (std::size_t t = 0; t < e.u.size(); ++t) {
    if (e.random.at[t][0] > 0) e.u[t][0] /= e.holders[t];
  }
  if (auto error = Fit(table, e, out)) return *error;
  for (RuleSample& s : samples) out.runs.push_back(std::move(s.run));
  return out;
}

}  // namespace idres::train
