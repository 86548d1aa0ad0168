// Matcher: weighs the evidence for and against a record being each
// candidate person, and decides the whole outcome of the record against
// them (docs/matching.md, "The matching model"): which persons it is, which of
// them may not be merged, which of its values belong to someone else, and
// which candidates are possible matches for a steward.
//
// Evidence comes from records, never from a union of values: a person is
// compared through each of its records the engine gathered (those sharing a
// blocking key or a strong value with the record), and its score is the
// best record's. So values that no one record of the person said together
// never add up as if one had, and a person that absorbed many records does
// not become a magnet for everyone who shares one value with each.
//
// Per type both records hold, the comparison's best level over the pairs of
// their values gives the type's weight (the exact level adjusted by how
// many persons hold the value: term frequency). Types of one group count
// once: the group's best positive weight plus its worst negative one (a
// household shares email, phone and address: one piece of evidence; a
// different phone beside the same city still speaks against). A record
// pair's total is the sum over groups; it matches when the total reaches
// the threshold, or when the two share a strong value and no group weighs
// against. Records of different entities (a person and an organization)
// never match. Of several matching persons, all are merged into the oldest
// (smallest id) unless two of them may not be one — strong evidence against
// each other (different documents of a type, birth dates that disagree) or
// a steward's never-match: then the record joins the best one. A record
// value held by more persons than its type's cap is generic: it is not
// compared. Pure: no database, no clock.
//
// Thread-safety: immutable after construction; all methods are const.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "matcher/model.h"
#include "normalize/identifier.h"

namespace idres {

// A person as the matcher sees it.
struct Candidate {
  std::int64_t person_id = 0;
  // The person's records the record is compared with, each its values
  // (sorted): those the engine found through a shared blocking key or
  // strong value.
  std::vector<std::vector<Identifier>> records;
  // Every value the person holds (sorted): exclusive values held
  // elsewhere, and strong evidence against another match.
  std::vector<Identifier> identifiers;
};

// Per record value: how many persons hold it (as read after the locks,
// bounded at the type's cap + 1). A value missing counts as held by none.
using ValueCounts = std::map<Identifier, std::size_t>;

// Whether a steward said persons a and b are not one.
using ApartFn = std::function<bool(std::int64_t, std::int64_t)>;

// One type's part of a score.
struct Comparison {
  std::string type;
  std::string level;
  double weight = 0;                       // the level's weight, term frequency included
  double tf_adjustment = 0;                // what term frequency took off the exact level
  std::string record_value, person_value;  // the pair that reached it
  bool counted = true;                     // false: another type of its group outweighed it
};

struct Score {
  double total = 0;
  bool against = false;       // some group weighs against
  bool strong_exact = false;  // shares a non-generic strong value
  bool other_entity = false;  // one record is a person, the other an organization
  std::size_t record = 0;     // which of the candidate's records it is
  std::vector<Comparison> comparisons;
};

struct MatchDecision {
  std::vector<std::int64_t> matches;      // ascending; front() is the survivor
  std::map<std::int64_t, double> scores;  // every candidate's total
  std::map<std::int64_t, Score> details;  // every candidate's breakdown (its best record)
  // Record values of an exclusive type held by a person that is not a
  // match: they must be neither moved nor duplicated.
  std::vector<Identifier> held_elsewhere;
  std::vector<Identifier> generic;  // record values treated as generic
  // Several matches that may not be merged: the record joined the best.
  bool conflict = false;
  bool kept_apart = false;  // ... because a steward said so (not the evidence)
  // Candidates scored from the review threshold up that the record did not
  // join and that no never-match keeps apart from the one it joined:
  // possible matches for a steward, ascending.
  std::vector<std::int64_t> possible;

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

  // The evidence that `record` and `other` (one record's values) are one.
  Score Compare(std::span<const Identifier> record, std::span<const Identifier> other,
                const ValueCounts& counts) const;
  // The evidence that `record` is `candidate`: its best record's.
  Score Compare(std::span<const Identifier> record, const Candidate& candidate,
                const ValueCounts& counts) const;

  // Scores every candidate (one per person_id) and decides; `apart` (may
  // be empty: none) tells which persons a steward keeps apart.
  MatchDecision Decide(std::span<const Identifier> record, std::span<const Candidate> candidates,
                       const ValueCounts& counts, const ApartFn& apart = {}) const;

  // Whether two persons `record` matched (through the records its scores
  // name) hold strong evidence against being one: different values of a
  // document type (none of a pair within one edit), or birth dates of the
  // two matched records that disagree and that `record` does not vouch
  // across (Vouches).
  bool Conflict(std::span<const Identifier> record, const Candidate& a, const Score& a_score,
                const Candidate& b, const Score& b_score) const;
  // Whether `a` and `b` hold values of a type compared by `kind` that
  // disagree (the comparison's last level).
  bool Conflict(std::span<const Identifier> a, std::span<const Identifier> b,
                ComparisonKind kind) const;

  // Whether `score` makes its candidate a match: the threshold reached, or
  // a shared strong value and no evidence against.
  bool Matches(const Score& score) const {
    if (score.other_entity) return false;
    return score.total >= model_.threshold || (score.strong_exact && !score.against);
  }

  // Whether a candidate scoring `total` that the record did not join is a
  // possible match.
  bool Possible(double total) const {
    return total >= model_.review_threshold && total < model_.threshold;
  }

  const Model& model() const { return model_; }

 private:
  // `counts` less, for each value of `record`, the persons of `matches`
  // holding it (at least one holder stays): the holders other than the
  // record's own person, against whom the other candidates are compared.
  ValueCounts ValuesOfOthers(std::span<const Identifier> record,
                             const std::map<std::int64_t, const Candidate*>& by_id,
                             const std::vector<std::int64_t>& matches,
                             const ValueCounts& counts) const;
  // The matches of `d` that may not be merged, resolved: the record joins
  // the best of them (ties: the oldest); exclusive values the others hold
  // stay there.
  void JoinBest(std::span<const Identifier> record,
                const std::map<std::int64_t, const Candidate*>& by_id, MatchDecision& d) const;
  bool Vouches(std::span<const Identifier> record, std::span<const Identifier> matched,
               const Score& score) const;

  Model model_;
};

}  // namespace idres
