-- idres store, step 7 (README.md, "Explanations and possible matches"): the
-- possible matches in the order ListPossibleMatches pages them, best score
-- first, so a page reads the rows it shows (and the closed ones between
-- them) instead of the whole table.
CREATE INDEX possible_matches_order ON possible_matches (score DESC, person_a, person_b);
