// Why a record is (or would be) a person, and why two persons are or are
// not one (docs/matching.md, "Explanations and possible matches"). Plain values;
// safe to copy between threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/timestamp.h"
#include "matcher/matcher.h"
#include "normalize/identifier.h"

namespace idres {

// A person scored against a record: every comparison's level, weight and
// term-frequency adjustment, and the total (Score).
struct CandidateScore {
  std::int64_t person_id = 0;
  Score score;
  bool matched = false;   // reached the threshold, or a strong value and nothing against
  bool chosen = false;    // the record joined it (the survivor, or one merged into it)
  bool possible = false;  // not chosen, at or above the review threshold: kept for review
  // Matched persons a steward's never-match keeps apart from this one.
  std::vector<std::int64_t> never_with;
};

// A blocking key or strong value a record is found through, and locks.
struct ExplainedKey {
  std::string rule;      // the blocking rule, or "strong" for a strong value
  std::string parts;     // e.g. "SM0 1978", or "email anna@x.org"
  bool generic = false;  // held by too many persons: it brings no candidates
};

// The decision for one record, as the upsert takes it.
struct Explanation {
  std::vector<Identifier> normalized;
  std::vector<Rejection> rejected;
  std::vector<Identifier> generic;
  std::vector<ExplainedKey> keys;
  double threshold = 0, review_threshold = 0;
  std::vector<CandidateScore> candidates;  // best total first, then by id
  std::string decision;                    // "create", "update" or "merge"
  // update, merge: the survivor. create: the new person (0 from Explain,
  // which creates nothing).
  std::int64_t person_id = 0;
  std::vector<std::int64_t> merged_person_ids;
  // What changed the plain decision: a never-match, or matches holding
  // strong evidence against each other.
  std::string note;
  std::optional<std::string> error;  // the record is refused whole
};

// Engine::ExplainPair: person B scored as a candidate for a record holding
// person A's values.
struct PairExplanation {
  std::int64_t person_a = 0, person_b = 0;  // live ids
  CandidateScore score;
  double threshold = 0, review_threshold = 0;
  std::string judgement;  // "never", or empty
};

// A pair a record scored in the review band for: stored apart, for a
// steward to judge.
struct PossibleMatch {
  std::int64_t person_a = 0, person_b = 0;  // a < b, live
  double score = 0;
  Timestamp found_at;
};

struct PossibleMatchPage {
  std::vector<PossibleMatch> matches;  // best score first
  std::string next_cursor;             // empty: no more
};

}  // namespace idres
