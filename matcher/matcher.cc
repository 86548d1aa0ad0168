#include "matcher/matcher.h"

#include <algorithm>
#include <set>
#include <string>

#include "matcher/weak_sets.h"

namespace idres {

Matcher::Matcher(MatchConfig config) : config_(std::move(config)) {}

double Matcher::Score(std::span<const Identifier> record, const Candidate& candidate) const {
  const std::set<Identifier> held(candidate.identifiers.begin(), candidate.identifiers.end());
  std::set<std::string, std::less<>> counted;
  double score = 0;
  for (const Identifier& id : record) {
    if (counted.contains(id.type) || !held.contains(id)) continue;
    const TypeRule* rule = config_.Find(id.type);
    if (rule == nullptr) continue;
    counted.insert(id.type);
    score += rule->weight;
  }
  return score;
}

MatchDecision Matcher::Decide(std::span<const Identifier> record,
                              std::span<const Candidate> candidates) const {
  // One candidate per person, even if the caller's rows repeat a person.
  std::map<std::int64_t, Candidate> persons;
  for (const Candidate& c : candidates) {
    Candidate& merged = persons[c.person_id];
    merged.person_id = c.person_id;
    merged.identifiers.insert(merged.identifiers.end(), c.identifiers.begin(), c.identifiers.end());
  }
  MatchDecision decision;
  for (const auto& [id, candidate] : persons) {
    const double score = Score(record, candidate);
    decision.scores[id] = score;
    if (ReachesThreshold(score, config_.threshold)) decision.matches.push_back(id);
  }
  // Unique values held by a person the record does not match.
  std::set<Identifier> seen;
  for (const Identifier& id : record) {
    const TypeRule* rule = config_.Find(id.type);
    if (rule == nullptr || !rule->unique || !seen.insert(id).second) continue;
    for (const auto& [pid, candidate] : persons) {
      if (std::binary_search(decision.matches.begin(), decision.matches.end(), pid)) continue;
      if (std::find(candidate.identifiers.begin(), candidate.identifiers.end(), id) !=
          candidate.identifiers.end()) {
        decision.held_elsewhere.push_back(id);
        break;
      }
    }
  }
  return decision;
}

}  // namespace idres
