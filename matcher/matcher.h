// Matcher: scores candidate persons against a record and decides which of
// them the record matches.
//
// A person's score is the sum, over identifier types, of the weight of each
// type for which the person holds one of the record's values (a type counts
// once). Persons scoring at or above the threshold are matches; the survivor
// of a merge is the oldest match, i.e. the smallest id (ids are handed out in
// creation order and never reused). Pure: no database, no clock.
//
// Thread-safety: immutable after construction; all methods are const.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "matcher/match_config.h"
#include "normalize/identifier.h"

namespace idres {

// A person as the matcher sees it: its id and the identifiers it holds.
struct Candidate {
  std::int64_t person_id = 0;
  std::vector<Identifier> identifiers;
};

struct MatchDecision {
  std::vector<std::int64_t> matches;      // ascending; front() is the survivor
  std::map<std::int64_t, double> scores;  // every candidate's score
  // Record values of a unique type already held by a person that is not a
  // match (possible only when a unique type weighs less than the
  // threshold): they must be neither moved nor duplicated.
  std::vector<Identifier> held_elsewhere;

  std::optional<std::int64_t> survivor() const {
    if (matches.empty()) return std::nullopt;
    return matches.front();
  }
  double survivor_score() const { return matches.empty() ? 0.0 : scores.at(matches.front()); }
};

class Matcher {
 public:
  explicit Matcher(MatchConfig config);

  // The score of `candidate` for a record holding `record`.
  double Score(std::span<const Identifier> record, const Candidate& candidate) const;

  // Scores every candidate (duplicates by person_id are merged) and decides.
  MatchDecision Decide(std::span<const Identifier> record,
                       std::span<const Candidate> candidates) const;

  const MatchConfig& config() const { return config_; }

 private:
  MatchConfig config_;
};

}  // namespace idres
