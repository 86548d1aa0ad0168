-- idres store, step 6 (docs/matching.md, "Explanations and possible matches").

-- A merge an upsert caused keeps its breakdown: each matched person's
-- comparisons (type, level, weight, term frequency), one line per person
-- (engine/detail/explain_decision.h, EncodeScores). No values.
ALTER TABLE merges ADD COLUMN scores text;

-- Pairs a record scored between the review threshold and the match
-- threshold for (or matched but set aside): stored apart, for a steward to
-- judge. Written by the upsert's own statements; a pair found again keeps
-- its latest score. No foreign keys: the persons may since have merged
-- (the pair is then read through merges' redirects) or gone. A pair is open
-- while its persons are two live ones that no never-match keeps apart.
CREATE TABLE possible_matches (
  person_a bigint           NOT NULL,
  person_b bigint           NOT NULL,
  score    double precision NOT NULL,
  found_at timestamptz      NOT NULL DEFAULT now(),
  PRIMARY KEY (person_a, person_b),
  CHECK (person_a < person_b)
);
CREATE INDEX possible_matches_b ON possible_matches (person_b);
