// The explanation of one record's decision, built from what the resolver
// saw and did (docs/matching.md, "Explanations and possible matches"), and the
// compact text a merge's breakdown is kept in (merges.scores). Pure;
// thread-safe. Internal to engine/.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/detail/prepared_record.h"
#include "engine/explanation.h"
#include "engine/record.h"
#include "matcher/lock_plan.h"
#include "matcher/matcher.h"

namespace idres::detail {

// Whether a steward said live persons `a` and `b` are not one.
using NeverFn = std::function<bool(std::int64_t, std::int64_t)>;

// Every candidate of decision `d` scored, best total first (ties: the
// smaller id), with its matched, chosen and never-with flags; `chosen`: the
// persons the record ended in (survivor and merged).
std::vector<CandidateScore> ScoreCandidates(const MatchDecision& d, const Matcher& matcher,
                                            const std::set<std::int64_t>& chosen,
                                            const NeverFn& never);

// What set the plain decision aside: "" when nothing did.
std::string DecisionNote(const std::vector<CandidateScore>& candidates, std::int64_t joined);

// The explanation of `record`'s decision `d`, taken as `result` says.
// `generic_keys`: blocking keys past the key cap; `counts`: the value counts
// the decision used.
Explanation ExplainDecision(const PreparedRecord& record, const MatchDecision& d,
                            const UpsertResult& result, const Matcher& matcher,
                            const LockPlanner& planner, const std::set<std::int64_t>& generic_keys,
                            const ValueCounts& counts, const NeverFn& never);

// Candidates' breakdowns as one line each, "<id> <total> <type>:<level>:
// <weight>:<tf>:<counted> ...", without values, after a line "t <threshold>
// <review threshold>" of the model that decided; and back (thresholds 0
// when the text has none).
struct KeptScores {
  std::vector<CandidateScore> scores;
  double threshold = 0, review_threshold = 0;
};
std::string EncodeScores(const std::vector<CandidateScore>& scores, const Model& model);
KeptScores DecodeScores(std::string_view text);

}  // namespace idres::detail
