#include "train/report.h"

#include <cstdio>

#include "train/format.h"

namespace idres::train {
namespace {

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "-" : out;
}

std::string Summary(const Training& t) {
  std::string out =
      Format("%zu records; u from %s %llu random pairs", t.records,
             t.every_pair ? "all" : "a sample of", static_cast<unsigned long long>(t.random_pairs));
  out += Format(
      "; prior %.3g (%llu pairs the deterministic rule calls matches, recall %.2f, of "
      "%.0f pairs)\n",
      t.prior.lambda, static_cast<unsigned long long>(t.prior.rule_pairs), t.prior.recall,
      t.prior.all_pairs);
  return out;
}

std::string Runs(const Training& t) {
  std::string out = Format("\n%-34s %10s %10s %6s %12s %8s  %s\n", "EM run (blocking rule)",
                           "pairs", "of", "iters", "last change", "matches", "not estimated");
  for (const RuleRun& r : t.runs) {
    if (!r.unused.empty()) {
      out += Format("%-34s %10llu %10llu  not used: %s\n", r.rule.c_str(),
                    static_cast<unsigned long long>(r.pairs),
                    static_cast<unsigned long long>(r.candidate_pairs), r.unused.c_str());
      continue;
    }
    out += Format("%-34s %10llu %10llu %6d %12.2e %8.3f  %s\n", r.rule.c_str(),
                  static_cast<unsigned long long>(r.pairs),
                  static_cast<unsigned long long>(r.candidate_pairs), r.iterations, r.last_change,
                  r.lambda, Join(r.blocked).c_str());
  }
  if (!t.empty_rules.empty()) out += "rules with no pair: " + Join(t.empty_rules) + "\n";
  return out;
}

std::string Levels(const Training& t) {
  std::string out =
      Format("\n%-18s %10s %10s %7s %7s %10s %10s %9s %11s\n", "comparison, level", "m", "u",
             "weight", "start", "matching", "candidate", "random", "strangers");
  bool kept = false;
  for (const ComparisonFit& c : t.comparisons) {
    if (!c.in_data()) {
      out += Format("%s: no two records hold it; starting numbers kept\n", c.type.c_str());
      continue;
    }
    out += Format("%s: m from %s; exact u per holder (%.2f persons hold an agreed value)\n",
                  c.type.c_str(), Join(c.rules).c_str(), c.holders);
    for (const LevelFit& l : c.levels) {
      kept = kept || l.m_kept || l.u_kept;
      out +=
          Format("  %-16s %9.3g%s %9.3g%s %7.2f %7.2f %10.1f %10llu %9llu %11.1f\n", l.name.c_str(),
                 l.m, l.m_kept ? "*" : " ", l.u, l.u_kept ? "*" : " ", l.weight(), l.start_weight(),
                 l.match_pairs, static_cast<unsigned long long>(l.rule_pairs),
                 static_cast<unsigned long long>(l.random_pairs), l.stranger_pairs);
    }
  }
  if (kept) out += "* no pair reached the level: its starting number is kept\n";
  out +=
      "matching: expected matching pairs (EM); candidate: pairs of the EM runs; random: random "
      "pairs; strangers: random pairs weighed by their chance of not being a match\n";
  return out;
}

}  // namespace

std::string TrainingTable(const Training& training) {
  return Summary(training) + Runs(training) + Levels(training);
}

LevelNotes TrainingNotes(const Training& training) {
  LevelNotes notes;
  for (const ComparisonFit& c : training.comparisons) {
    auto& lines = notes[c.type];
    for (const LevelFit& l : c.levels) {
      std::string note = Format("start %.2f", l.start_weight());
      if (!c.in_data()) {
        note += ", not in the data: starting numbers kept";
      } else {
        note += Format(", pairs: %.1f matching of %llu candidate, %llu random (%.1f strangers)",
                       l.match_pairs, static_cast<unsigned long long>(l.rule_pairs),
                       static_cast<unsigned long long>(l.random_pairs), l.stranger_pairs);
        if (l.m_kept) note += ", starting m kept";
        if (l.u_kept) note += ", starting u kept";
      }
      lines.push_back(std::move(note));
    }
  }
  return notes;
}

std::string TrainingPreamble(const Training& training, const std::string& source,
                             std::uint64_t seed) {
  return Format("# Fitted by idres train from %s: %zu records, seed %llu.\n", source.c_str(),
                training.records, static_cast<unsigned long long>(seed)) +
         "# " + Summary(training) +
         "# Each level: the fitted m and u, the weight, the starting weight and the pairs\n"
         "# behind them (docs/matching.md, \"Training a model\").\n";
}

std::vector<ChartComparison> ChartOf(const Training& training) {
  std::vector<ChartComparison> out;
  for (const ComparisonFit& c : training.comparisons) {
    if (!c.in_data()) continue;
    ChartComparison& chart = out.emplace_back();
    chart.type = c.type;
    for (const LevelFit& l : c.levels) {
      chart.levels.push_back({l.name, l.weight(), l.start_weight(), l.m_kept || l.u_kept});
    }
  }
  return out;
}

}  // namespace idres::train
