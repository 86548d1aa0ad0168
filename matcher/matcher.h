// Matcher: weighs the evidence for and against a record being each
// candidate person, and decides which of them it is (README.md, "The
// matching model").
//
// Per type both sides hold, the comparison's best level over the pairs of
// record value and person value gives the type's weight (the exact level
// adjusted by how many persons hold the value: term frequency). Types of one
// group count once, by their best weight; a person's total is the sum over
// groups. A person matches when its total reaches the threshold, or when it
// shares a strong value with the record and no group weighs against. Of
// several matches, all are merged into the oldest (smallest id) unless two
// of them hold strong evidence against each other (different documents of a
// type, birth dates that disagree): then the record joins the best one.
// A record value held by more persons than its type's cap is generic: it is
// not compared. Pure: no database, no clock.
//
// Thread-safety: immutable after construction; all methods are const.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "matcher/model.h"
#include "normalize/identifier.h"

namespace idres {

// A person as the matcher sees it: its id and the identifiers it holds.
struct Candidate {
  std::int64_t person_id = 0;
  std::vector<Identifier> identifiers;
};

// Per record value: how many persons hold it (as read after the locks,
// bounded at the type's cap + 1). A value missing counts as held by none.
using ValueCounts = std::map<Identifier, std::size_t>;

// One type's part of a score.
struct Comparison {
  std::string type;
  std::string level;
  double weight = 0;                       // the level's weight, term frequency included
  double tf_adjustment = 0;                // what term frequency took off the exact level
  std::string record_value, person_value;  // the pair that reached it
  bool counted = true;                     // false: another type of its group weighed more
};

struct Score {
  double total = 0;
  bool against = false;       // some group weighs against
  bool strong_exact = false;  // shares a non-generic strong value
  std::vector<Comparison> comparisons;
};

struct MatchDecision {
  std::vector<std::int64_t> matches;      // ascending; front() is the survivor
  std::map<std::int64_t, double> scores;  // every candidate's total
  std::map<std::int64_t, Score> details;  // every candidate's breakdown
  // Record values of an exclusive type held by a person that is not a
  // match: they must be neither moved nor duplicated.
  std::vector<Identifier> held_elsewhere;
  std::vector<Identifier> generic;  // record values treated as generic
  bool conflict = false;            // several matches that may not be merged

  std::optional<std::int64_t> survivor() const {
    if (matches.empty()) return std::nullopt;
    return matches.front();
  }
  double survivor_score() const { return matches.empty() ? 0.0 : scores.at(matches.front()); }
};

class Matcher {
 public:
  explicit Matcher(Model model);

  // Whether `value` (a record value) is generic given `counts`.
  bool Generic(const Identifier& value, const ValueCounts& counts) const;

  // The evidence that a record holding `record` is `candidate`.
  Score Compare(std::span<const Identifier> record, const Candidate& candidate,
                const ValueCounts& counts) const;

  // Scores every candidate (duplicates by person_id are merged) and decides.
  MatchDecision Decide(std::span<const Identifier> record, std::span<const Candidate> candidates,
                       const ValueCounts& counts) const;

  // Whether two persons hold strong evidence against being one: different
  // values of a document type (none of a pair within one edit), or birth
  // dates that disagree.
  bool Conflict(const Candidate& a, const Candidate& b) const;

  // Whether `score` makes its candidate a match: the threshold reached, or
  // a shared strong value and no evidence against (Decide's rule).
  bool Matches(const Score& score) const {
    return score.total >= model_.threshold || (score.strong_exact && !score.against);
  }

  const Model& model() const { return model_; }

 private:
  Model model_;
};

}  // namespace idres
