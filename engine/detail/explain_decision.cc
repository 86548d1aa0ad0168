#include "engine/detail/explain_decision.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace idres::detail {

std::vector<CandidateScore> ScoreCandidates(const MatchDecision& d, const Matcher& matcher,
                                            const std::set<std::int64_t>& chosen,
                                            const NeverFn& never) {
  std::vector<CandidateScore> out;
  for (const auto& [id, score] : d.details) {
    CandidateScore c;
    c.person_id = id;
    c.score = score;
    c.matched = matcher.Matches(score);
    c.chosen = chosen.contains(id);
    out.push_back(std::move(c));
  }
  for (CandidateScore& c : out) {
    for (const CandidateScore& o : out) {
      if (o.person_id != c.person_id && c.matched && o.matched && never(c.person_id, o.person_id)) {
        c.never_with.push_back(o.person_id);
      }
    }
  }
  for (CandidateScore& c : out) {
    c.possible = std::binary_search(d.possible.begin(), d.possible.end(), c.person_id);
  }
  std::sort(out.begin(), out.end(), [](const CandidateScore& a, const CandidateScore& b) {
    return a.score.total != b.score.total ? a.score.total > b.score.total
                                          : a.person_id < b.person_id;
  });
  return out;
}

std::string DecisionNote(const std::vector<CandidateScore>& candidates, std::int64_t joined) {
  std::vector<std::int64_t> set_aside;
  bool steward = false;
  for (const CandidateScore& c : candidates) {
    if (!c.matched || c.chosen) continue;
    set_aside.push_back(c.person_id);
    if (!c.never_with.empty()) steward = true;
  }
  if (set_aside.empty()) return {};
  std::string ids;
  for (std::int64_t id : set_aside) ids += (ids.empty() ? "" : ", ") + std::to_string(id);
  const std::string why = steward ? "a steward's never-match keeps them apart"
                                  : "they hold strong evidence against each other (different "
                                    "documents or birth dates)";
  return "person " + ids + " matched too, but " + why + ": the record joined person " +
         std::to_string(joined) + ", the better";
}

Explanation ExplainDecision(const PreparedRecord& record, const MatchDecision& d,
                            const UpsertResult& result, const Matcher& matcher,
                            const LockPlanner& planner, const std::set<std::int64_t>& generic_keys,
                            const ValueCounts& counts, const NeverFn& never) {
  const Model& model = matcher.model();
  Explanation e;
  e.normalized = record.identifiers;
  e.rejected = result.rejected;
  e.generic = d.generic;
  e.threshold = model.threshold;
  e.review_threshold = model.review_threshold;
  for (const Identifier& v : record.plan.lookups) {
    e.keys.push_back({"strong", v.type + " " + v.value, matcher.Generic(v, counts)});
  }
  for (const BlockingKey& k : planner.BlockingKeys(record.identifiers)) {
    e.keys.push_back({k.rule, k.parts, generic_keys.contains(k.key)});
  }
  std::set<std::int64_t> chosen;
  if (result.outcome != Outcome::kCreated) {
    chosen.insert(result.person_id);
    chosen.insert(result.merged_person_ids.begin(), result.merged_person_ids.end());
  }
  e.candidates = ScoreCandidates(d, matcher, chosen, never);
  e.decision = result.outcome == Outcome::kCreated  ? "create"
               : result.outcome == Outcome::kMerged ? "merge"
                                                    : "update";
  e.person_id = result.person_id;
  e.merged_person_ids = result.merged_person_ids;
  e.note = DecisionNote(e.candidates, result.person_id);
  return e;
}

std::string EncodeScores(const std::vector<CandidateScore>& scores, const Model& model) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "t %.17g %.17g\n", model.threshold, model.review_threshold);
  std::string out = buf;
  for (const CandidateScore& c : scores) {
    std::snprintf(buf, sizeof buf, "%lld %.17g", static_cast<long long>(c.person_id),
                  c.score.total);
    out += buf;
    for (const Comparison& x : c.score.comparisons) {
      std::snprintf(buf, sizeof buf, ":%.17g:%.17g:%d", x.weight, x.tf_adjustment,
                    x.counted ? 1 : 0);
      out += " " + x.type + ":" + x.level + buf;
    }
    out += "\n";
  }
  return out;
}

KeptScores DecodeScores(std::string_view text) {
  KeptScores kept;
  std::vector<CandidateScore>& out = kept.scores;
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    if (line.rfind("t ", 0) == 0) {
      std::string t;
      words >> t >> kept.threshold >> kept.review_threshold;
      continue;
    }
    CandidateScore c;
    if (!(words >> c.person_id >> c.score.total)) continue;
    c.chosen = c.matched = true;
    std::string w;
    while (words >> w) {
      // type:level:weight:tf:counted; type and level hold no ':'.
      std::vector<std::string> f;
      std::istringstream fields(w);
      for (std::string part; std::getline(fields, part, ':');) f.push_back(part);
      if (f.size() != 5) continue;
      Comparison x;
      x.type = f[0];
      x.level = f[1];
      x.weight = std::strtod(f[2].c_str(), nullptr);
      x.tf_adjustment = std::strtod(f[3].c_str(), nullptr);
      x.counted = f[4] == "1";
      c.score.comparisons.push_back(std::move(x));
    }
    out.push_back(std::move(c));
  }
  return kept;
}

}  // namespace idres::detail
