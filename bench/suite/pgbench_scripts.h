// pgbench scripts with the engine's transaction shape (engine/detail/
// statements.h, store.cc, upsert_tx.cc): the same statements, in the same
// order, one round trip each, prepared. What pgbench leaves out is what makes
// the engine an engine: normalization, the lock plan, the matcher and the
// C++ trait merge. So pgbench's throughput is the database's own limit for
// this work on this machine.
//
// Lock keys are random numbers: nothing else takes them, exactly as for the
// engine's fresh records. lock_timeout comes from PGOPTIONS (-c
// lock_timeout=2000) instead of a SET LOCAL in the BEGIN round trip, since
// pgbench cannot prepare two statements in one message; same round trips.
//
//   kPgbenchNew    scenario (a): BEGIN; lock 3 keys (email, phone, composite);
//                  candidate read; insert person + 5 identifiers + 1 match
//                  key (one statement); COMMIT. 5 round trips.
//   kPgbenchUpdate scenarios (b)/(c): BEGIN; lock 1 key (email); candidate
//                  read; FOR UPDATE on the person; re-read; write traits;
//                  COMMIT. 7 round trips. Needs -D persons=<N>: persons 1..N
//                  from the preload are updated.
// pgbench reads ":name" as a variable even inside a literal, so the time
// format spells its colons E'\x3a'.
#pragma once

namespace idres::bench {

inline constexpr const char* kPgbenchNew = R"SQL(
\set n random(1, 9000000000000000)
\set k1 random(-4000000000000000000, 4000000000000000000)
\set k2 random(-4000000000000000000, 4000000000000000000)
\set k3 random(-4000000000000000000, 4000000000000000000)
BEGIN ISOLATION LEVEL READ COMMITTED;
SELECT pg_advisory_xact_lock(k) FROM unnest(ARRAY[:k1, :k2, :k3]::bigint[]) AS k ORDER BY k;
WITH c AS (
  SELECT i.person_id FROM identifiers i
  JOIN unnest(ARRAY['email', 'phone']::text[],
              ARRAY['g' || :n || '@pgbench.example.org', '+1653' || :n]::text[]) AS r(type, value)
  ON i.type = r.type AND i.value = r.value
  UNION
  SELECT m.person_id FROM match_keys m WHERE m.key = ANY(ARRAY[:k3]::bigint[]))
SELECT i.person_id, i.type, i.value FROM identifiers i
JOIN c ON i.person_id = c.person_id ORDER BY i.person_id;
WITH p AS (INSERT INTO persons (traits) VALUES ((
    SELECT COALESCE(jsonb_object_agg(tk, CASE tkind WHEN 'number' THEN to_jsonb(tv::numeric)
      WHEN 'boolean' THEN to_jsonb(tv::boolean) ELSE to_jsonb(tv) END), '{}'::jsonb)
    FROM unnest(ARRAY['plan', 'seq']::text[], ARRAY['string', 'number']::text[],
                ARRAY['trial', :n]::text[]) AS t(tk, tkind, tv))) RETURNING id),
  i AS (INSERT INTO identifiers (person_id, type, value, is_unique)
    SELECT p.id, x.t, x.v, x.u FROM p,
    unnest(ARRAY['birth_date', 'email', 'name', 'phone', 'postal_code']::text[],
           ARRAY['1990-01-01', 'g' || :n || '@pgbench.example.org', 'pgbench person ' || :n,
                 '+1653' || :n, '12345']::text[],
           ARRAY[false, true, false, true, false]::boolean[]) AS x(t, v, u)),
  m AS (INSERT INTO match_keys (key, person_id) SELECT k, p.id FROM p, unnest(ARRAY[:k3]::bigint[]) AS k)
SELECT id FROM p;
COMMIT;
)SQL";

inline constexpr const char* kPgbenchUpdate = R"SQL(
\set id random(1, :persons)
\set k1 random(-4000000000000000000, 4000000000000000000)
BEGIN ISOLATION LEVEL READ COMMITTED;
SELECT pg_advisory_xact_lock(k) FROM unnest(ARRAY[:k1]::bigint[]) AS k ORDER BY k;
WITH c AS (
  SELECT i.person_id FROM identifiers i
  JOIN unnest(ARRAY['email']::text[], ARRAY['p' || :id || '@preload.example.org']::text[]) AS r(type, value)
  ON i.type = r.type AND i.value = r.value
  UNION
  SELECT m.person_id FROM match_keys m WHERE m.key = ANY('{}'::bigint[]))
SELECT i.person_id, i.type, i.value FROM identifiers i
JOIN c ON i.person_id = c.person_id ORDER BY i.person_id;
SELECT id FROM persons WHERE id = ANY(ARRAY[:id]::bigint[]) ORDER BY id FOR UPDATE;
SELECT id, 'p', to_char(created_at AT TIME ZONE 'UTC', E'YYYY-MM-DD"T"HH24\x3aMI\x3aSS.US"Z"'),
       to_char(updated_at AT TIME ZONE 'UTC', E'YYYY-MM-DD"T"HH24\x3aMI\x3aSS.US"Z"'), NULL
  FROM persons WHERE id = ANY(ARRAY[:id]::bigint[])
UNION ALL SELECT person_id, 'i', type, value, NULL FROM identifiers
  WHERE person_id = ANY(ARRAY[:id]::bigint[])
UNION ALL SELECT p.id, 't', t.key, jsonb_typeof(t.value), t.value #>> '{}'
  FROM persons p, jsonb_each(p.traits) AS t WHERE p.id = ANY(ARRAY[:id]::bigint[]);
WITH i AS (INSERT INTO identifiers (person_id, type, value, is_unique)
    SELECT :id::bigint, x.t, x.v, x.u FROM unnest('{}'::text[], '{}'::text[], '{}'::boolean[]) AS x(t, v, u)
    ON CONFLICT (person_id, type, value) DO NOTHING),
  m AS (INSERT INTO match_keys (key, person_id) SELECT k, :id::bigint FROM unnest('{}'::bigint[]) AS k
    ON CONFLICT DO NOTHING)
UPDATE persons SET traits = (
    SELECT COALESCE(jsonb_object_agg(tk, CASE tkind WHEN 'number' THEN to_jsonb(tv::numeric)
      WHEN 'boolean' THEN to_jsonb(tv::boolean) ELSE to_jsonb(tv) END), '{}'::jsonb)
    FROM unnest(ARRAY['plan', 'visits']::text[], ARRAY['string', 'number']::text[],
                ARRAY['basic', :k1]::text[]) AS t(tk, tkind, tv)), updated_at = now()
  WHERE id = :id;
COMMIT;
)SQL";

}  // namespace idres::bench
