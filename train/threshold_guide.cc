#include "train/threshold_guide.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "matcher/matcher.h"

namespace idres::train {
namespace {

constexpr double kStep = 0.5;  // between candidate thresholds

struct Scored {
  double score;
  double match;  // chance of a match
};

// Each distinct candidate pair once, scored; sampled down to about
// `max_pairs` by PairHash.
std::vector<Scored> ScorePairs(const RecordTable& table, const BlockingKeys& keys,
                               const Matcher& matcher, double prior, const GuideOptions& o,
                               std::uint64_t* candidates) {
  *candidates = 0;
  for (std::size_t r = 0; r < keys.rules(); ++r) {
    keys.ForEachPair(r, true, 1.0, o.seed, [&](std::size_t, std::size_t) { ++*candidates; });
  }
  const double keep =
      *candidates > o.max_pairs ? static_cast<double>(o.max_pairs) / *candidates : 1.0;
  const double prior_odds = std::log2(prior / (1 - prior));
  std::vector<Scored> out;
  for (std::size_t r = 0; r < keys.rules(); ++r) {
    keys.ForEachPair(r, true, keep, o.seed, [&](std::size_t a, std::size_t b) {
      const std::vector<Identifier> x = table.Identifiers(a), y = table.Identifiers(b);
      // Term frequency: the records holding each value stand for its holders.
      ValueCounts counts;
      for (const Value& v : table.Values(a)) {
        counts[{table.types()[v.type], std::string(table.dictionary().text(v.id))}] =
            table.dictionary().holders(v.id);
      }
      const double score = matcher.Compare(x, y, counts).total;
      out.push_back({score, 1 / (1 + std::exp2(-(score + prior_odds)))});
    });
  }
  return out;
}

}  // namespace

ThresholdGuide GuideThreshold(const RecordTable& table, const BlockingKeys& keys,
                              const Model& model, double prior, const GuideOptions& o) {
  ThresholdGuide guide;
  guide.min_precision = o.min_precision;
  const Matcher matcher(model);
  std::vector<Scored> pairs = ScorePairs(table, keys, matcher, prior, o, &guide.candidates);
  guide.scored = pairs.size();
  if (pairs.empty()) return guide;
  std::sort(pairs.begin(), pairs.end(),
            [](const Scored& a, const Scored& b) { return a.score > b.score; });
  double all_matches = 0;
  for (const Scored& p : pairs) all_matches += p.match;
  const double scale = static_cast<double>(guide.candidates) / static_cast<double>(pairs.size());
  const double top = std::ceil(pairs.front().score / kStep) * kStep;
  const double bottom = std::max(0.0, std::floor(pairs.back().score / kStep) * kStep);
  std::size_t at = 0;
  double count = 0, matches = 0;
  bool holds = true;  // precision has stayed at the target from the top down to here
  for (double t = top; t >= bottom; t -= kStep) {
    while (at < pairs.size() && pairs[at].score >= t) {
      ++count;
      matches += pairs[at++].match;
    }
    ThresholdRow row{t, count * scale, count > 0 ? matches / count : 1.0,
                     all_matches > 0 ? matches / all_matches : 0.0};
    holds = holds && row.precision >= o.min_precision;
    if (holds && count > 0) guide.suggested = t;
    guide.rows.push_back(row);
  }
  std::reverse(guide.rows.begin(), guide.rows.end());
  return guide;
}

std::string GuideTable(const ThresholdGuide& guide, double current) {
  char line[160];
  std::string out = "\nthreshold  pairs at or above  est. precision  est. recall\n";
  for (const ThresholdRow& r : guide.rows) {
    // Whole numbers, the current threshold and the suggestion; the rest
    // would only lengthen the table.
    const bool marked =
        r.threshold == current || (guide.suggested && r.threshold == *guide.suggested);
    if (!marked && r.threshold != std::floor(r.threshold)) continue;
    std::snprintf(line, sizeof line, "%9.1f  %17.0f  %14.4f  %11.4f%s%s\n", r.threshold, r.pairs,
                  r.precision, r.recall, r.threshold == current ? "  <- the model's" : "",
                  guide.suggested && r.threshold == *guide.suggested ? "  <- suggested" : "");
    out += line;
  }
  if (guide.suggested) {
    std::snprintf(line, sizeof line,
                  "suggested threshold %.1f: the lowest from which the estimated precision stays "
                  "at or above %.2f (%llu of %llu candidate pairs scored)\n",
                  *guide.suggested, guide.min_precision,
                  static_cast<unsigned long long>(guide.scored),
                  static_cast<unsigned long long>(guide.candidates));
  } else {
    std::snprintf(line, sizeof line, "no threshold keeps the estimated precision at %.2f\n",
                  guide.min_precision);
  }
  return out + line;
}

}  // namespace idres::train
