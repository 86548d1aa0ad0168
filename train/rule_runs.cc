#include "train/rule_runs.h"

#include <algorithm>
#include <set>

#include "train/level_tally.h"

namespace idres::train {
namespace {

// The types `rule` takes a part of are not estimated from its pairs.
std::vector<bool> Active(const BlockingRule& rule, const RecordTable& table) {
  std::vector<bool> active(table.types().size(), true);
  for (const std::string& part : rule.parts) {
    const std::string type = part.substr(0, part.find('.'));
    for (std::size_t t = 0; t < active.size(); ++t) {
      if (table.types()[t] == type) active[t] = false;
    }
  }
  return active;
}

// Why a sample cannot estimate m, or empty. With u fixed, one piece of
// evidence alone fits any share of matches equally well (the mixture is
// not identifiable): EM needs two compared independently, and the types of
// one group (a household's email, phone and address) are not.
std::string Unusable(const RuleSample& s, const Model& model, const RecordTable& table) {
  std::set<std::string> groups;
  for (const PatternCount& p : s.patterns) {
    for (std::size_t t = 0; t < p.levels.size(); ++t) {
      if (!s.active[t] || p.levels[t] == kNotCompared) continue;
      const std::string& group = model.Find(table.types()[t])->group;
      groups.insert(group.empty() ? "type " + table.types()[t] : "group " + group);
    }
  }
  return groups.size() >= 2 ? "" : "fewer than two evidence groups left to compare";
}

PatternCounts RulePatterns(const BlockingKeys& keys, std::size_t rule, const PairLevels& levels,
                           const TrainOptions& o, std::uint64_t candidates) {
  const double keep = candidates > o.max_rule_pairs
                          ? static_cast<double>(o.max_rule_pairs) / static_cast<double>(candidates)
                          : 1.0;
  PatternCounts counts;
  std::vector<std::uint8_t> pattern(levels.types());
  keys.ForEachPair(rule, false, keep, o.seed, [&](std::size_t a, std::size_t b) {
    levels.Levels(a, b, pattern);
    counts.Add(pattern);
  });
  return counts;
}

}  // namespace

std::vector<RuleSample> SampleRules(const RecordTable& table, const BlockingKeys& keys,
                                    const Model& model, const PairLevels& levels,
                                    const TrainOptions& o, std::vector<std::string>* empty) {
  std::vector<RuleSample> out;
  for (std::size_t r = 0; r < model.blocking.size(); ++r) {
    RuleSample s;
    s.run.rule = model.blocking[r].name;
    s.active = Active(model.blocking[r], table);
    for (std::size_t t = 0; t < s.active.size(); ++t) {
      if (!s.active[t]) s.run.blocked.push_back(table.types()[t]);
    }
    s.run.candidate_pairs = keys.PairsBefore(r);
    const PatternCounts counts = RulePatterns(keys, r, levels, o, s.run.candidate_pairs);
    if (counts.pairs() == 0) {
      empty->push_back(s.run.rule);
      continue;
    }
    s.run.pairs = counts.pairs();
    s.run.patterns = counts.size();
    s.patterns = counts.Sorted();
    s.run.unused = Unusable(s, model, table);
    out.push_back(std::move(s));
  }
  return out;
}

std::variant<Pooled, std::string> RunRules(std::vector<RuleSample>& samples, const LevelTable& m,
                                           bool from_agreement, const LevelTable& u,
                                           const Prior& prior, const TrainOptions& o) {
  Pooled pooled{m, {}, std::vector<std::vector<std::string>>(m.size())};
  for (auto& levels : pooled.match_pairs) std::fill(levels.begin(), levels.end(), 0.0);
  for (const auto& levels : m) pooled.reached.emplace_back(levels.size(), 0);
  for (RuleSample& s : samples) {
    if (!s.run.unused.empty()) continue;
    // EM starts from as many matches as the prior expects among all pairs,
    // as though they all were among these.
    const double expected = prior.lambda * prior.all_pairs / static_cast<double>(s.run.pairs);
    EmStart start{s.active,         m,          from_agreement, u, std::clamp(expected, 0.01, 0.5),
                  o.max_iterations, o.tolerance};
    const EmResult e = RunEm(s.patterns, start);
    s.run.iterations = e.iterations;
    s.run.last_change = e.last_change;
    s.run.lambda = e.lambda;
    if (!e.converged) {
      return "EM did not converge on the pairs of blocking rule " + s.run.rule + " within " +
             std::to_string(e.iterations) + " iterations (largest change at the end " +
             std::to_string(e.last_change) + "); raise --max-iterations or --tolerance";
    }
    const Tally seen = Count(s.patterns, m);
    for (std::size_t t = 0; t < m.size(); ++t) {
      if (!s.active[t] || seen.compared[t] == 0) continue;
      pooled.rules[t].push_back(s.run.rule);
      for (std::size_t l = 0; l < m[t].size(); ++l) {
        pooled.match_pairs[t][l] += e.match_pairs[t][l];
        pooled.reached[t][l] += static_cast<std::uint64_t>(seen.at[t][l]);
      }
    }
  }
  return pooled;
}

LevelTable PooledM(const Pooled& pooled, const LevelTable& start) {
  LevelTable m = start;
  for (std::size_t t = 0; t < m.size(); ++t) {
    double total = 0;
    for (double w : pooled.match_pairs[t]) total += w;
    if (total <= 0) continue;
    for (std::size_t l = 0; l < m[t].size(); ++l) {
      if (pooled.reached[t][l] == 0) continue;
      m[t][l] = std::max(pooled.match_pairs[t][l], 0.5) / total;
    }
  }
  return m;
}

}  // namespace idres::train
