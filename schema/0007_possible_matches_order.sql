-- idres store, step 7 (docs/matching.md, "Explanations and possible matches").

-- The pairs closed before the statements that close one (a merge, a
-- never-match, a removal) deleted it: their two ids read, through the
-- redirects, as one person, or one is gone, or a never-match stands between
-- them. From now on they would sit in front of the open ones.
DELETE FROM possible_matches pm
  USING (SELECT q.person_a, q.person_b,
           LEAST(COALESCE(ma.survivor_id, q.person_a), COALESCE(mb.survivor_id, q.person_b)) AS a,
           GREATEST(COALESCE(ma.survivor_id, q.person_a), COALESCE(mb.survivor_id, q.person_b)) AS b
         FROM possible_matches q
         LEFT JOIN merges ma ON ma.absorbed_id = q.person_a
         LEFT JOIN merges mb ON mb.absorbed_id = q.person_b) r
  WHERE pm.person_a = r.person_a AND pm.person_b = r.person_b
    AND (r.a = r.b
         OR NOT EXISTS (SELECT 1 FROM persons p WHERE p.id = r.a)
         OR NOT EXISTS (SELECT 1 FROM persons p WHERE p.id = r.b)
         OR EXISTS (SELECT 1 FROM judgements j
                    WHERE j.person_id = r.a AND j.other_id = r.b AND j.kind = 'never'));

-- The possible matches in the order ListPossibleMatches pages them, best
-- score first, so a page reads the rows it shows (and any closed ones
-- between them) instead of the whole table.
CREATE INDEX possible_matches_order ON possible_matches (score DESC, person_a, person_b);
