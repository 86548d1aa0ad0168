// Every SQL statement the engine runs, as named constants with $n
// parameters (engine/detail/pg_conn.h binds them as text values; nothing is
// spliced into the SQL). Arrays travel as array literals
// (engine/detail/pg_array.h) cast to text[], bigint[] or boolean[].
// Internal to engine/.
#pragma once

#include <span>

namespace idres::detail {

struct Statement {
  const char* name;  // the prepared statement's name
  const char* sql;
};

// A timestamp as microseconds since 1970-01-01 UTC (engine/timestamp.h), as
// text so that it unions with the text columns of the multi-row reads.
#define IDRES_SQL_MICROS(col) "((extract(epoch FROM " col ") * 1000000)::bigint)::text"

// One trait value as jsonb from its kind (tkind) and text (tv).
#define IDRES_SQL_TRAIT_VALUE                                                \
  "CASE tkind WHEN 'number' THEN to_jsonb(tv::numeric) WHEN 'boolean' THEN " \
  "to_jsonb(tv::boolean) ELSE to_jsonb(tv) END"

// A chunk's records, written with their persons (docs/design.md, "Records,
// judgements and the change feed"): CTEs rv (per record ordinal, its values
// as two sorted arrays, from ord/type/value arrays vo, vt, vv) and rt (its
// traits as jsonb, from ord/key/kind/text arrays to, tk, tkd, tv).
#define IDRES_SQL_RECORD_PARTS(vo, vt, vv, to, tk, tkd, tv)                                      \
  " rv AS (SELECT x.o, array_agg(x.t ORDER BY x.t, x.v) AS types,"                               \
  "  array_agg(x.v ORDER BY x.t, x.v) AS vals FROM unnest(" vo "::bigint[], " vt "::text[], " vv \
  "::text[]) AS x(o, t, v) GROUP BY 1),"                                                         \
  " rt AS (SELECT x.o, jsonb_object_agg(x.tk, " IDRES_SQL_TRAIT_VALUE                            \
  ") AS traits"                                                                                  \
  "  FROM unnest(" to "::bigint[], " tk "::text[], " tkd "::text[], " tv                         \
  "::text[]) AS x(o, tk, tkind, tv) GROUP BY 1)"
// The insert of those records (x: ordinal o, person expression, source s,
// record id r), replacing a stored record of the same identity whole.
#define IDRES_SQL_RECORD_INSERT(person, from)                                            \
  " INSERT INTO records (source, record_id, person_id, types, vals, traits, created_at," \
  " updated_at) SELECT x.s, x.r, " person                                                \
  ", COALESCE(rv.types, '{}'), COALESCE(rv.vals, '{}'),"                                 \
  " COALESCE(rt.traits, '{}'::jsonb), clock_timestamp(), clock_timestamp() FROM " from   \
  " LEFT JOIN rv ON rv.o = x.o LEFT JOIN rt ON rt.o = x.o"                               \
  " ON CONFLICT (source, record_id) DO UPDATE SET person_id = EXCLUDED.person_id,"       \
  " types = EXCLUDED.types, vals = EXCLUDED.vals, traits = EXCLUDED.traits,"             \
  " updated_at = EXCLUDED.updated_at RETURNING person_id, source, record_id, xmax = 0 AS added"

// Possible matches (person a, person b, score) from `from` (rows x with
// score x.s), each pair once as (least, greatest) with its best score; a
// pair stored already takes the new score and time.
#define IDRES_SQL_POSSIBLE_INSERT(a, b, from)                                             \
  " INSERT INTO possible_matches (person_a, person_b, score)"                             \
  " SELECT LEAST(" a ", " b "), GREATEST(" a ", " b "), max(x.s) FROM " from              \
  " GROUP BY 1, 2 ON CONFLICT (person_a, person_b) DO UPDATE SET score = EXCLUDED.score," \
  " found_at = now()"

// The ids `ids` (bigint[]) and every id merged into one of them: rows
// (id). A possible match is closed once both its ids are in such a set of
// one person, or of two a never-match keeps apart.
// clang-format off
#define IDRES_SQL_WITH_MERGED(ids) \
  "SELECT unnest(" ids ") AS id UNION SELECT absorbed_id FROM merges" \
  " WHERE survivor_id = ANY(" ids ")"
// clang-format on

// Deletes the possible matches with both ids (WITHIN) or either (OF) in
// CTE `set` (rows (id), IDRES_SQL_WITH_MERGED's): the pairs a merge or a
// never-match closed, or those of persons gone.
#define IDRES_SQL_DROP_PAIRS(set, both_or_either)                                           \
  "DELETE FROM possible_matches WHERE person_a IN (SELECT id FROM " set ") " both_or_either \
  " person_b IN (SELECT id FROM " set ") RETURNING 1"
#define IDRES_SQL_DROP_PAIRS_WITHIN(set) IDRES_SQL_DROP_PAIRS(set, "AND")
#define IDRES_SQL_DROP_PAIRS_OF(set) IDRES_SQL_DROP_PAIRS(set, "OR")

// The history rows of the records written (CTE w, IDRES_SQL_RECORD_INSERT's
// rows): added, or replaced (an update of the stored row).
#define IDRES_SQL_RECORD_EVENTS                                                        \
  " INSERT INTO person_events (person_id, kind, source, record_id)"                    \
  " SELECT person_id, CASE WHEN added THEN 'record_added' ELSE 'record_replaced' END," \
  " source, record_id FROM w"

// Step 2: the transaction's lock_timeout and statement_timeout, e.g. '2000ms'
// (SET LOCAL takes no parameters; set_config(..., true) is the same).
inline constexpr Statement kSetLockTimeout{"idres_set_lock_timeout",
                                           "SELECT set_config('lock_timeout', $1, true)"};
inline constexpr Statement kSetStatementTimeout{"idres_set_statement_timeout",
                                                "SELECT set_config('statement_timeout', $1, true)"};

// Step 3: every key in one statement, ascending, so concurrent upserts take
// shared keys in one order and cannot deadlock on them.
inline constexpr Statement kLockKeys{
    "idres_lock_keys", "SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k ORDER BY k"};

// Step 4 (a new statement, so its snapshot postdates the lock wait): who
// the records could be, and how common their values are. Rows (kind, ord,
// n): 'h' a person holding the strong or exclusive value $1[ord]/$2[ord],
// at most $3[ord] + 1 of them (more: the value is generic, the caller drops
// them); 'n' how many persons hold the other value $4[ord]/$5[ord], counted
// to at most $6[ord] + 1; 'k' a person holding the blocking key $7[ord], at
// most $8 + 1 per key. Every probe is bounded, so a common value costs no
// more than its cap, and nothing is written: no counter row to wait on.
inline constexpr Statement kReadCandidates{
    "idres_read_candidates",
    "SELECT 'h', r.ord, h.person_id"
    " FROM unnest($1::text[], $2::text[], $3::int[]) WITH ORDINALITY AS r(type, value, cap, ord)"
    " CROSS JOIN LATERAL (SELECT i.person_id FROM identifiers i"
    "  WHERE i.type = r.type AND i.value = r.value LIMIT r.cap + 1) h"
    " UNION ALL SELECT 'n', r.ord, (SELECT count(*) FROM (SELECT 1 FROM identifiers i"
    "  WHERE i.type = r.type AND i.value = r.value LIMIT r.cap + 1) s)"
    " FROM unnest($4::text[], $5::text[], $6::int[]) WITH ORDINALITY AS r(type, value, cap, ord)"
    " UNION ALL SELECT 'k', r.ord, m.person_id"
    " FROM unnest($7::bigint[]) WITH ORDINALITY AS r(key, ord)"
    " CROSS JOIN LATERAL (SELECT m.person_id FROM match_keys m WHERE m.key = r.key"
    "  LIMIT $8::int + 1) m"};

// Step 5: row locks on the matched persons, ascending. A person merged away
// meanwhile is not returned (its row is gone).
inline constexpr Statement kLockPersons{
    "idres_lock_persons",
    "SELECT id FROM persons WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE"};

// Step 5's re-read, and GetPerson: one snapshot of the persons $1, as rows
// (person_id, kind, a, b, c): kind 'p' = (created_at, updated_at), 't' =
// (key, jsonb type, text value), 'j' = (a person it must never be merged
// with), 'r' = (a record's row, type, value): the values of its records,
// records holding the same values read once. A person's identifiers are
// the union of its records' values (docs/design.md, "Records, judgements
// and the change feed", invariant 1), so they are read as rows 'i' =
// (type, value) only for a person without records (a store written before
// records, or rows put in by hand): the identifiers' rows were a quarter of
// the statement's time (BENCHMARKS.md, "Persons read from their records").
inline constexpr Statement kReadPersons{
    "idres_read_persons",
    "WITH r AS MATERIALIZED (SELECT DISTINCT ON (person_id, types, vals) id, person_id, types,"
    "  vals FROM records WHERE person_id = ANY($1::bigint[]) ORDER BY person_id, types, vals, id)"
    " SELECT id, 'p', " IDRES_SQL_MICROS("created_at") ", " IDRES_SQL_MICROS(
        "updated_at") ", NULL FROM persons WHERE id = ANY($1::bigint[])"
                      " UNION ALL SELECT person_id, 'i', type, value, NULL FROM identifiers"
                      " WHERE person_id = ANY(ARRAY(SELECT unnest($1::bigint[])"
                      "  EXCEPT SELECT person_id FROM r))"
                      " UNION ALL SELECT p.id, 't', t.key, jsonb_typeof(t.value), t.value #>> '{}'"
                      " FROM persons p, jsonb_each(p.traits) AS t WHERE p.id = ANY($1::bigint[])"
                      " UNION ALL SELECT person_id, 'j', other_id::text, NULL, NULL FROM judgements"
                      " WHERE person_id = ANY($1::bigint[]) AND kind = 'never'"
                      " UNION ALL SELECT r.person_id, 'r', r.id::text, v.t, v.v"
                      " FROM r, unnest(r.types, r.vals) AS v(t, v)"};

// Step 6, merge: the absorbed persons' ($2) identifiers move to the
// survivor ($1); deleted and re-inserted in one statement, so the unique
// index never sees a value twice.
inline constexpr Statement kMoveIdentifiers{
    "idres_move_identifiers",
    "WITH moved AS (DELETE FROM identifiers WHERE person_id = ANY($2::bigint[])"
    "  RETURNING type, value, is_unique, created_at)"
    " INSERT INTO identifiers (person_id, type, value, is_unique, created_at)"
    " SELECT DISTINCT ON (type, value) $1, type, value, is_unique, created_at FROM moved"
    " ORDER BY type, value, created_at ON CONFLICT (person_id, type, value) DO NOTHING"};

// Step 6, merge: older redirects to the absorbed persons ($2) now point at
// the survivor ($1) so one hop always reaches a live person; each absorbed
// id redirects to it, with a 'merged' change row (docs/batch.md, "The change
// feed"; the survivor's 'updated' comes with kUpdatePersons); their records
// move to it; the possible matches among them, closed now, go; then the
// absorbed rows go. $3 reason.
inline constexpr Statement kRedirectAndDelete{
    "idres_redirect_and_delete",
    "WITH r AS (UPDATE merges SET survivor_id = $1 WHERE survivor_id = ANY($2::bigint[])"
    "  RETURNING 1),"
    " n AS (INSERT INTO merges (absorbed_id, survivor_id, reason, scores)"
    "  SELECT a, $1, r, s FROM unnest($2::bigint[], $3::text[], $4::text[]) AS x(a, r, s)"
    "  RETURNING 1),"
    " c AS (INSERT INTO changes (person_id, kind, other_id)"
    "  SELECT x.a, 'merged', $1 FROM unnest($2::bigint[]) WITH ORDINALITY AS x(a, n)"
    "  ORDER BY x.n),"
    " k AS (DELETE FROM match_keys WHERE person_id = ANY($2::bigint[]) RETURNING 1),"
    " rr AS (UPDATE records SET person_id = $1 WHERE person_id = ANY($2::bigint[]) RETURNING 1),"
    " j0 AS (DELETE FROM judgements WHERE (person_id = $1 OR person_id = ANY($2::bigint[]))"
    "  AND (other_id = $1 OR other_id = ANY($2::bigint[])) RETURNING 1),"
    " j1 AS (UPDATE judgements SET person_id = $1 WHERE person_id = ANY($2::bigint[])"
    "  AND other_id <> $1 AND other_id <> ALL($2::bigint[]) RETURNING 1),"
    " j2 AS (UPDATE judgements SET other_id = $1 WHERE other_id = ANY($2::bigint[])"
    "  AND person_id <> $1 AND person_id <> ALL($2::bigint[]) RETURNING 1),"
    " one AS (" IDRES_SQL_WITH_MERGED("($2::bigint[] || $1::bigint)") "),"
    " pm AS (" IDRES_SQL_DROP_PAIRS_WITHIN("one") ")"
    " DELETE FROM persons WHERE id = ANY($2::bigint[])"};

// Steps 6 and 7, the persons a transaction's records created, in one
// statement (engine/detail/batch_writer.h) that travels with the COMMIT.
// They carry provisional ids (engine/detail/batch_resolver.h) until this
// statement hands out real ones: $1 the provisional ids in creation order,
// each given the next id of the sequence in that order (an ORDER BY puts
// volatile output after the sort), so the oldest keeps the smallest id, as
// one upsert after the other would hand them out; $2 whether each is
// inserted (one created and merged away by a later record of the same
// transaction gets an id and a redirect, no row). $3-$6 traits (person, key,
// kind, text); $7-$10 identifiers (person, type, value, unique); $11/$12
// match keys (key, person); $13/$14 redirects (absorbed, survivor: created
// or stored) of created persons merged away; $15 their reason; $16-$26 the
// records of created persons (IDRES_SQL_RECORD_PARTS, $16-$19: ordinal,
// person, source, record id; $20-$22 values; $23-$26 traits), a stored
// record moving to one (a part split off its person) written whole. Each
// person gets a 'created' change row, in creation order, and each of them
// merged away a 'merged' one after it (docs/batch.md, "The change feed"); then
// each stored person $27[i] that the created part $28[i] split off a 'split'
// row naming it; $29[i]/$30[i] never-match judgements (a split's parts),
// written both ways.
// Returns (provisional, real). Foreign keys are checked at the end of the statement,
// when the new persons exist; a value of a unique type someone else holds
// fails with 23505 (retried).
inline constexpr Statement kCreatePersons{
    "idres_create_persons",
    "WITH ids AS (SELECT x.prov, x.live, nextval(pg_get_serial_sequence('persons', 'id')) AS id"
    "  FROM unnest($1::bigint[], $2::boolean[]) WITH ORDINALITY AS x(prov, live, ord)"
    "  ORDER BY x.ord),"
    " t AS (SELECT x.o, jsonb_object_agg(tk, " IDRES_SQL_TRAIT_VALUE
    ") AS traits"
    "  FROM unnest($3::bigint[], $4::text[], $5::text[], $6::text[]) AS x(o, tk, tkind, tv)"
    "  GROUP BY 1),"
    " c AS (SELECT clock_timestamp() AS ts),"
    " np AS (INSERT INTO persons (id, traits, created_at, updated_at) OVERRIDING SYSTEM VALUE"
    "  SELECT ids.id, COALESCE(t.traits, '{}'::jsonb), c.ts, c.ts FROM c, ids"
    "  LEFT JOIN t ON t.o = ids.prov WHERE ids.live),"
    " ni AS (INSERT INTO identifiers (person_id, type, value, is_unique)"
    "  SELECT ids.id, x.t, x.v, x.u"
    "  FROM unnest($7::bigint[], $8::text[], $9::text[], $10::boolean[]) AS x(p, t, v, u)"
    "  JOIN ids ON ids.prov = x.p),"
    " nk AS (INSERT INTO match_keys (key, person_id)"
    "  SELECT x.k, ids.id FROM unnest($11::bigint[], $12::bigint[]) AS x(k, p)"
    "  JOIN ids ON ids.prov = x.p),"
    " nm AS (INSERT INTO merges (absorbed_id, survivor_id, reason, scores)"
    "  SELECT a.id, COALESCE(s.id, m.s), m.r, m.sc"
    "  FROM unnest($13::bigint[], $14::bigint[], $15::text[], $31::text[]) AS m(a, s, r, sc)"
    "  JOIN ids a ON a.prov = m.a LEFT JOIN ids s ON s.prov = m.s"
    "  RETURNING absorbed_id, survivor_id),"
    " nc AS (INSERT INTO changes (person_id, kind, other_id)"
    "  SELECT p, k, o FROM (SELECT id AS p, 'created' AS k, NULL::bigint AS o, 1 AS phase"
    "  FROM ids UNION ALL SELECT absorbed_id, 'merged', survivor_id, 2 FROM nm"
    "  UNION ALL SELECT COALESCE(f.id, x.f), 'split', ids.id, 3"
    "  FROM unnest($27::bigint[], $28::bigint[]) AS x(f, part) JOIN ids ON ids.prov = x.part"
    "  LEFT JOIN ids f ON f.prov = x.f) c"
    "  ORDER BY phase, p),"
    IDRES_SQL_RECORD_PARTS("$20", "$21", "$22", "$23", "$24", "$25", "$26") ","
    " pm AS (" IDRES_SQL_POSSIBLE_INSERT("COALESCE(a.id, x.a)", "COALESCE(b.id, x.b)",
                                        "unnest($32::bigint[], $33::bigint[], $34::float8[])"
                                        " AS x(a, b, s) LEFT JOIN ids a ON a.prov = x.a"
                                        " LEFT JOIN ids b ON b.prov = x.b") "),"
    " nj AS (INSERT INTO judgements (person_id, other_id, kind)"
    "  SELECT COALESCE(a.id, j.a), COALESCE(b.id, j.b), 'never'"
    "  FROM unnest($29::bigint[] || $30::bigint[], $30::bigint[] || $29::bigint[]) AS j(a, b)"
    "  LEFT JOIN ids a ON a.prov = j.a LEFT JOIN ids b ON b.prov = j.b),"
    " w AS (" IDRES_SQL_RECORD_INSERT("ids.id",
                                     "unnest($16::bigint[], $17::bigint[], $18::text[], $19::text[])"
                                     " AS x(o, p, s, r) JOIN ids ON ids.prov = x.p") "),"
    " ne AS (" IDRES_SQL_RECORD_EVENTS ")"
    " SELECT prov, id FROM ids"};

// Step 7 for stored persons ($1): their traits written whole ($2-$5:
// person, key, kind, text), new identifiers ($6-$9: person, type, value,
// unique) and match keys ($10/$11: key, person); each person gets an
// 'updated' change row (docs/batch.md, "The change feed"). updated_at is the
// time of this write, after every lock wait, not the transaction's start:
// merges fold traits in updated_at order, and a write that waited on a lock
// commits after one that began later.
inline constexpr Statement kUpdatePersons{
    "idres_update_persons",
    "WITH t AS (SELECT x.o, jsonb_object_agg(tk, " IDRES_SQL_TRAIT_VALUE
    ") AS traits"
    "  FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[]) AS x(o, tk, tkind, tv)"
    "  GROUP BY 1),"
    " ni AS (INSERT INTO identifiers (person_id, type, value, is_unique)"
    "  SELECT * FROM unnest($6::bigint[], $7::text[], $8::text[], $9::boolean[])"
    "  ON CONFLICT (person_id, type, value) DO NOTHING),"
    " nk AS (INSERT INTO match_keys (key, person_id)"
    "  SELECT * FROM unnest($10::bigint[], $11::bigint[]) ON CONFLICT DO NOTHING),"
    " nc AS (INSERT INTO changes (person_id, kind)"
    "  SELECT x.p, 'updated' FROM unnest($1::bigint[]) WITH ORDINALITY AS x(p, n) ORDER BY x.n)"
    " UPDATE persons SET traits = COALESCE((SELECT t.traits FROM t WHERE t.o = persons.id),"
    " '{}'::jsonb), updated_at = clock_timestamp() WHERE persons.id = ANY($1::bigint[])"};

// Step 7, the match keys a stored person gained without any other change
// (key, person: $1/$2): a record saying known values in a new combination.
inline constexpr Statement kAddMatchKeys{
    "idres_add_match_keys",
    "INSERT INTO match_keys (key, person_id) SELECT * FROM unnest($1::bigint[], $2::bigint[])"
    " ON CONFLICT DO NOTHING"};

// Step 7, the records of stored persons (the arrays of kCreatePersons'
// $16-$26), inserted or replacing the stored record of the same identity.
inline constexpr Statement kWriteRecords{
    "idres_write_records",
    "WITH" IDRES_SQL_RECORD_PARTS(
        "$5", "$6", "$7", "$8", "$9", "$10",
        "$11") ", w AS (" IDRES_SQL_RECORD_INSERT("x.p",
                                                  "unnest($1::bigint[], $2::bigint[], $3::text[], "
                                                  "$4::text[])"
                                                  " AS x(o, p, s, r)") ")" IDRES_SQL_RECORD_EVENTS};

// Step 7, what stored persons lost when a record was withdrawn: values
// (person, type, value: $1-$3) and match keys (key, person: $4/$5).
inline constexpr Statement kShrinkPersons{
    "idres_shrink_persons",
    "WITH k AS (DELETE FROM match_keys WHERE (key, person_id) IN"
    "  (SELECT * FROM unnest($4::bigint[], $5::bigint[])) RETURNING 1)"
    " DELETE FROM identifiers WHERE (person_id, type, value) IN"
    "  (SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[]))"};

// Step 7, DeleteRecord: the records deleted (row ids $1) and the persons
// left without any record ($2), removed with their values, keys, possible
// matches (theirs and those of the ids merged into them) and the redirects
// to them; removed_persons keeps that they were, without data,
// and each gets an 'erased' change row (gone without a survivor).
inline constexpr Statement kDropRecords{
    "idres_drop_records",
    "WITH d AS (DELETE FROM records WHERE id = ANY($1::bigint[])"
    "  RETURNING person_id, source, record_id),"
    " de AS (INSERT INTO person_events (person_id, kind, source, record_id)"
    "  SELECT person_id, 'record_deleted', source, record_id FROM d"
    "  WHERE person_id <> ALL($2::bigint[]) RETURNING 1),"
    " c AS (INSERT INTO changes (person_id, kind) SELECT x.p, 'erased'"
    "  FROM unnest($2::bigint[]) WITH ORDINALITY AS x(p, n) ORDER BY x.n),"
    " gone AS (" IDRES_SQL_WITH_MERGED("$2::bigint[]") "),"
    " pm AS (" IDRES_SQL_DROP_PAIRS_OF("gone") "),"
    " m AS (DELETE FROM merges WHERE survivor_id = ANY($2::bigint[]) RETURNING 1),"
    " j AS (DELETE FROM judgements WHERE person_id = ANY($2::bigint[])"
    "  OR other_id = ANY($2::bigint[]) RETURNING 1),"
    " k AS (DELETE FROM match_keys WHERE person_id = ANY($2::bigint[]) RETURNING 1),"
    " i AS (DELETE FROM identifiers WHERE person_id = ANY($2::bigint[]) RETURNING 1),"
    " r AS (INSERT INTO removed_persons (person_id, why)"
    "  SELECT unnest($2::bigint[]), 'emptied' RETURNING 1)"
    " DELETE FROM persons WHERE id = ANY($2::bigint[])"};

// The stored records named ($1 sources, $2 record ids) and the values of
// every record of the person each belongs to: rows (ordinal, row id,
// person, a record of the person, type, value; the last three NULL for a
// person without values). Before a chunk's transaction, to learn the keys
// it must lock; inside it, where they are.
inline constexpr Statement kReadNamedRecords{
    "idres_read_named_records",
    "SELECT n.ord, r.id, r.person_id, o.id, v.t, v.v"
    " FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS n(source, record_id, ord)"
    " JOIN records r ON r.source = n.source AND r.record_id = n.record_id"
    " LEFT JOIN records o ON o.person_id = r.person_id"
    " LEFT JOIN LATERAL unnest(o.types, o.vals) AS v(t, v) ON true"};

// Every record of the persons $1, as rows (kind, row id, a, b, c, d, e, f):
// 'r' = (person, source, record id, created_at, updated_at, bond); 'v' =
// (type, value); 't' = (key, jsonb type, text value).
inline constexpr Statement kReadRecordsOf{
    "idres_read_records_of",
    "SELECT 'r', r.id, r.person_id::text, r.source, r.record_id, " IDRES_SQL_MICROS(
        "r.created_at") ", " IDRES_SQL_MICROS("r.updated_at") ", r.bond FROM records r"
    " WHERE r.person_id = ANY($1::bigint[])"
    " UNION ALL SELECT 'v', r.id, NULL, v.t, v.v, NULL, NULL, NULL"
    " FROM records r, unnest(r.types, r.vals) AS v(t, v)"
    " WHERE r.person_id = ANY($1::bigint[])"
    " UNION ALL SELECT 't', r.id, NULL, t.key, jsonb_typeof(t.value),"
    " t.value #>> '{}', NULL, NULL FROM records r, jsonb_each(r.traits) AS t"
    " WHERE r.person_id = ANY($1::bigint[])"};

// ForgetPerson: person $1 and everything of it — its records, values,
// events and possible matches (its own and those of the ids merged into it),
// keys, and the redirects to it (with their reasons, which name values) —
// deleted; removed_persons keeps, without data, that it and each id that
// redirected to it were erased, and the feed gets its 'erased' row.
// Records a steward's split or a withdrawal moved to it from another person
// are named in that person's history too (its events, and the reasons of
// merges into it): those events lose the record's identity, and a reason
// naming one of its record ids or values is replaced. Returns those ids.
inline constexpr Statement kErasePerson{
    "idres_erase_person",
    "WITH gone AS (" IDRES_SQL_WITH_MERGED("ARRAY[$1::bigint]") "),"
    " mine AS (SELECT record_id AS t FROM records WHERE person_id = $1"
    "  UNION SELECT unnest(vals) FROM records WHERE person_id = $1"
    "  UNION SELECT value FROM identifiers WHERE person_id = $1),"
    " c AS (INSERT INTO changes (person_id, kind) VALUES ($1, 'erased') RETURNING 1),"
    " j AS (DELETE FROM judgements WHERE person_id = $1 OR other_id = $1 RETURNING 1),"
    " e AS (DELETE FROM person_events WHERE person_id IN (SELECT id FROM gone) RETURNING 1),"
    " eo AS (UPDATE person_events SET source = NULL, record_id = NULL"
    "  WHERE person_id NOT IN (SELECT id FROM gone)"
    "  AND (source, record_id) IN (SELECT source, record_id FROM records WHERE person_id = $1)"
    "  RETURNING 1),"
    " mo AS (UPDATE merges SET reason = 'a reason that named an erased person''s record'"
    "  WHERE survivor_id <> $1"
    "  AND EXISTS (SELECT 1 FROM mine WHERE t <> '' AND strpos(merges.reason, t) > 0)"
    "  RETURNING 1),"
    " pm AS (" IDRES_SQL_DROP_PAIRS_OF("gone") "),"
    " m AS (DELETE FROM merges WHERE survivor_id = $1 RETURNING 1),"
    " r AS (DELETE FROM records WHERE person_id = $1 RETURNING 1),"
    " k AS (DELETE FROM match_keys WHERE person_id = $1 RETURNING 1),"
    " i AS (DELETE FROM identifiers WHERE person_id = $1 RETURNING 1),"
    " p AS (DELETE FROM persons WHERE id = $1 RETURNING 1)"
    " INSERT INTO removed_persons (person_id, why) SELECT id, 'erased' FROM gone"
    " ON CONFLICT (person_id) DO UPDATE SET why = 'erased', removed_at = now()"
    " RETURNING person_id"};

// NeverMatch: persons $1 and $2 are not one, stored both ways (once); the
// possible matches between them (through the ids merged into either) go.
inline constexpr Statement kJudgeNever{
    "idres_judge_never",
    "WITH d AS (DELETE FROM judgements WHERE (person_id, other_id) IN (($1, $2), ($2, $1))"
    "  RETURNING 1),"
    " two AS (" IDRES_SQL_WITH_MERGED("ARRAY[$1::bigint, $2::bigint]") "),"
    " pm AS (" IDRES_SQL_DROP_PAIRS_WITHIN("two") "),"
    " e AS (INSERT INTO person_events (person_id, kind, other_id)"
    "  VALUES ($1, 'judged_never', $2), ($2, 'judged_never', $1) RETURNING 1)"
    " INSERT INTO judgements (person_id, other_id, kind) VALUES ($1, $2, 'never'), ($2, $1, "
    "'never')"};

// AlwaysMatch, with the persons $1 and $2 locked: their 'never' dropped,
// the judgement in both persons' history, and all their records given one
// new bond (schema/0005_record_bonds.sql), so no later replay of the merged
// person's records parts them.
inline constexpr Statement kJudgeAlways{
    "idres_judge_always",
    "WITH d AS (DELETE FROM judgements WHERE (person_id, other_id) IN (($1, $2), ($2, $1))"
    "  RETURNING 1),"
    " e AS (INSERT INTO person_events (person_id, kind, other_id)"
    "  VALUES ($1, 'judged_always', $2), ($2, 'judged_always', $1) RETURNING 1)"
    " UPDATE records SET bond = (SELECT nextval('record_bonds')) WHERE person_id IN ($1, $2)"};

// The audit trail (engine/detail/audit_log.h): idres.actor set to $1 for
// the rest of the transaction (SET LOCAL); every row of changes and
// person_events written after it names that actor (their default).
inline constexpr Statement kSetActor{"idres_set_actor",
                                     "SELECT set_config('idres.actor', $1, true)"};

// An audit entry: actor $1, action $2, persons $3, request $4 (JSON).
inline constexpr Statement kWriteAudit{"idres_write_audit",
                                       "INSERT INTO audit_log (actor, action, persons, request)"
                                       " VALUES ($1, $2, $3::bigint[], $4::jsonb)"};

// The entries written at or after $1 (microseconds since the Unix epoch)
// after seq $2, in seq order, at most $3: rows (seq, at, actor, action,
// persons as "1,2", request).
inline constexpr Statement kReadAudit{
    "idres_read_audit",
    "SELECT seq, " IDRES_SQL_MICROS("at") ", actor, action, array_to_string(persons, ','),"
    " request::text FROM audit_log"
    " WHERE at >= 'epoch'::timestamptz + $1::bigint * interval '1 microsecond' AND seq > $2"
    " ORDER BY seq LIMIT $3"};

// Reconcile: the 'never' judgements among the persons $1, as (a, b).
inline constexpr Statement kReadNever{
    "idres_read_never",
    "SELECT person_id, other_id FROM judgements WHERE kind = 'never'"
    " AND person_id = ANY($1::bigint[]) AND other_id = ANY($1::bigint[])"};

// Reconcile's scan: every 'never' judgement, as (a, b), both ways.
inline constexpr Statement kReadAllNever{
    "idres_read_all_never", "SELECT person_id, other_id FROM judgements WHERE kind = 'never'"};

// GetPersonHistory of person $1: rows (at, kind, other id, source, record
// id, detail, scores, actor) in time order: its changes but updates
// (created, split, merged, erased), its record and judgement events, and
// the persons merged into it with the reason and score breakdown of each
// merge ('absorbed'; scores: merges.scores). actor: the steward's or
// admin's whose action wrote the row (NULL for the rest).
// One change's events share its transaction's time (now()); within it the
// creation comes first, then what it absorbed, then the rest.
inline constexpr Statement kReadHistory{
    "idres_read_history",
    "SELECT " IDRES_SQL_MICROS("h.at") ", h.kind, h.other, h.source, h.record_id, h.detail,"
    " h.scores, h.actor"
    " FROM (SELECT CASE kind WHEN 'created' THEN LEAST(changed_at, (SELECT min(e.at)"
    "  FROM person_events e WHERE e.person_id = $1)) ELSE changed_at END AS at,"
    "  CASE kind WHEN 'created' THEN 0 ELSE 2 END AS rank, seq AS ord, kind, other_id AS other,"
    "  NULL::text AS source, NULL::text AS record_id, NULL::text AS detail,"
    "  NULL::text AS scores, actor FROM changes"
    "  WHERE person_id = $1 AND kind <> 'updated'"
    " UNION ALL SELECT at, 2, seq, kind, other_id, source, record_id, NULL, NULL, actor"
    "  FROM person_events WHERE person_id = $1"
    " UNION ALL SELECT merged_at, 1, 0, 'absorbed', absorbed_id, NULL, NULL, reason, scores,"
    "  NULL FROM merges WHERE survivor_id = $1) h ORDER BY h.at, h.rank, h.ord"};

// Step 7 when the chunk creates no person: its possible matches (a, b,
// score: $1-$3, real ids), sent with the COMMIT. kCreatePersons writes them
// otherwise, mapping the new persons' ids.
inline constexpr Statement kWritePossibleMatches{
    "idres_write_possible_matches",
    IDRES_SQL_POSSIBLE_INSERT("x.a", "x.b",
                              "unnest($1::bigint[], $2::bigint[], $3::float8[]) AS x(a, b, s)")};

// ListPossibleMatches: the open pairs (docs/matching.md, "Possible matches") of
// the stored rows pm `from`, in the order (score DESC, person_a, person_b)
// of the rows, after the cursor ($1 score, $2/$3: the last row's stored
// ids; 'Infinity', 0, 0 for the first page), at most $4. A row is read
// through the redirects of merges (one hop reaches a live person) as the
// pair (a, b), a < b, and left out when the two are one person by now, one
// is gone, a never-match stands between them, or an earlier row in that
// order reads as the same pair (each pair once, with its best score). Rows
// (a, b, score, found_at, the row's person_a, person_b: the cursor);
// `also`, a further condition on o.
#define IDRES_SQL_REDIRECT(id) \
  "COALESCE((SELECT m.survivor_id FROM merges m WHERE m.absorbed_id = " id "), " id ")"
// Row `row`'s two ids read through the redirects, as columns x, y of `as`.
// clang-format off
#define IDRES_SQL_READ_THROUGH(row, as) \
  " CROSS JOIN LATERAL (SELECT " IDRES_SQL_REDIRECT(row ".person_a") " AS x, " \
  IDRES_SQL_REDIRECT(row ".person_b") " AS y) " as
// clang-format on
#define IDRES_SQL_OPEN_POSSIBLE(from, also) \
  "SELECT o.a, o.b, pm.score, " IDRES_SQL_MICROS("pm.found_at") ", pm.person_a, pm.person_b"     \
  " FROM " from IDRES_SQL_READ_THROUGH("pm", "r")                                                \
  " CROSS JOIN LATERAL (SELECT LEAST(r.x, r.y) AS a, GREATEST(r.x, r.y) AS b) o"                  \
  " WHERE pm.score <= $1::float8"                                                                 \
  " AND (pm.score < $1::float8 OR (pm.person_a, pm.person_b) > ($2::bigint, $3::bigint))"         \
  " AND o.a <> o.b"                                                                               \
  " AND EXISTS (SELECT 1 FROM persons p WHERE p.id = o.a)"                                        \
  " AND EXISTS (SELECT 1 FROM persons p WHERE p.id = o.b)"                                        \
  " AND NOT EXISTS (SELECT 1 FROM judgements j WHERE j.person_id = o.a AND j.other_id = o.b"      \
  "  AND j.kind = 'never')"                                                                       \
  " AND NOT EXISTS (SELECT 1 FROM (SELECT o.a AS v UNION ALL SELECT o.b UNION ALL"                \
  "  SELECT m.absorbed_id FROM merges m WHERE m.survivor_id IN (o.a, o.b)) s"                     \
  "  JOIN possible_matches q ON q.person_a = s.v"                                                 \
  IDRES_SQL_READ_THROUGH("q", "qr")                                                               \
  "  WHERE (q.score > pm.score OR (q.score = pm.score"                                            \
  "   AND (q.person_a, q.person_b) < (pm.person_a, pm.person_b)))"                                \
  "  AND LEAST(qr.x, qr.y) = o.a AND GREATEST(qr.x, qr.y) = o.b)" also                          \
  " ORDER BY pm.score DESC, pm.person_a, pm.person_b LIMIT $4"

// For the transaction alone: no JIT compilation. A listing's plan is
// costed as if it read the whole table, so PostgreSQL would JIT-compile it
// (about 0.7 s, far more than the page it reads in index order).
inline constexpr Statement kJitOff{"idres_jit_off", "SELECT set_config('jit', 'off', true)"};

// Every open pair: the rows in index order (step 7's possible_matches_order),
// so a page reads about as many rows as it returns.
inline constexpr Statement kListPossibleMatches{"idres_list_possible_matches",
                                                IDRES_SQL_OPEN_POSSIBLE("possible_matches pm", "")};

// Person $5's open pairs: the rows naming it or an id merged into it.
inline constexpr Statement kListPossibleMatchesOf{
    "idres_list_possible_matches_of",
    "WITH s AS (SELECT $5::bigint AS v UNION ALL"
    " SELECT absorbed_id FROM merges WHERE survivor_id = $5)" IDRES_SQL_OPEN_POSSIBLE(
        "(SELECT q.* FROM s JOIN possible_matches q ON q.person_a = s.v UNION"
        " SELECT q.* FROM s JOIN possible_matches q ON q.person_b = s.v) pm",
        " AND $5 IN (o.a, o.b)")};

// Why id $1 names no person: (why, removed_at), or no row.
inline constexpr Statement kReadRemoval{
    "idres_read_removal",
    "SELECT why, " IDRES_SQL_MICROS("removed_at") " FROM removed_persons WHERE person_id = $1"};

inline constexpr Statement kResolveId{"idres_resolve_id",
                                      "SELECT survivor_id FROM merges WHERE absorbed_id = $1"};

inline constexpr Statement kFindByIdentifier{
    "idres_find_by_identifier",
    "SELECT person_id FROM identifiers WHERE type = $1 AND value = $2 ORDER BY person_id"
    " LIMIT $3"};

inline constexpr Statement kStats{
    "idres_stats",
    "WITH today AS (SELECT date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS t)"
    " SELECT (SELECT count(*) FROM persons), (SELECT count(*) FROM merges),"
    " (SELECT count(*) FROM identifiers), (SELECT count(*) FROM records),"
    " (SELECT count(*) FROM merges, today WHERE merged_at >= today.t),"
    " (SELECT count(*) FROM changes, today WHERE kind = 'split' AND changed_at >= today.t),"
    " (SELECT count(*) FROM (SELECT DISTINCT LEAST(r.x, r.y) AS a, GREATEST(r.x, r.y) AS b"
    "  FROM possible_matches pm" IDRES_SQL_READ_THROUGH("pm", "r") ") o"
    "  WHERE o.a <> o.b"
    "  AND EXISTS (SELECT 1 FROM persons p WHERE p.id = o.a)"
    "  AND EXISTS (SELECT 1 FROM persons p WHERE p.id = o.b)"
    "  AND NOT EXISTS (SELECT 1 FROM judgements j WHERE j.person_id = o.a AND j.other_id = o.b"
    "   AND j.kind = 'never'))"};

// Reconcile: every stored identifier (a batch job's full scan).
inline constexpr Statement kReadAllIdentifiers{
    "idres_read_all_identifiers",
    "SELECT person_id, type, value FROM identifiers ORDER BY person_id, type, value"};

// Reconcile: every record's values, as rows (person, record row, type,
// value), a record's rows together.
inline constexpr Statement kReadAllRecordValues{
    "idres_read_all_record_values",
    "SELECT r.person_id, r.id, v.t, v.v FROM records r, unnest(r.types, r.vals) AS v(t, v)"
    " ORDER BY r.person_id, r.id"};

// Reconcile: person $1's stored values $2/$3 (replaced by normalized ones)
// and all its match keys (recomputed from the normalized values).
inline constexpr Statement kDropStaleValues{
    "idres_drop_stale_values",
    "WITH m AS (DELETE FROM match_keys WHERE person_id = $1 RETURNING 1)"
    " DELETE FROM identifiers WHERE person_id = $1"
    " AND (type, value) IN (SELECT * FROM unnest($2::text[], $3::text[]))"};

// Reconcile: the records of person $1 say their values in today's form:
// each (type, value) $2/$3 becomes $4/$5 (two spellings that became one
// value are one).
inline constexpr Statement kRenormalizeRecords{
    "idres_renormalize_records",
    "WITH m AS (SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[])"
    "  AS m(ot, ov, nt, nv)),"
    " n AS (SELECT r.id, array_agg(d.t ORDER BY d.t, d.v) AS types,"
    "  array_agg(d.v ORDER BY d.t, d.v) AS vals FROM records r CROSS JOIN LATERAL"
    "  (SELECT DISTINCT COALESCE(m.nt, x.t) AS t, COALESCE(m.nv, x.v) AS v"
    "   FROM unnest(r.types, r.vals) AS x(t, v) LEFT JOIN m ON m.ot = x.t AND m.ov = x.v) d"
    "  WHERE r.person_id = $1 GROUP BY r.id)"
    " UPDATE records SET types = n.types, vals = n.vals FROM n WHERE records.id = n.id"};

// Batch receipts (engine/record.h, BatchReceipt): which of the items $2 of
// job $1 are stored; store items $2 of job $1; forget job $1.
inline constexpr Statement kReadReceipts{
    "idres_read_receipts",
    "SELECT item FROM import_receipts WHERE job = $1 AND item = ANY($2::bigint[])"};
inline constexpr Statement kWriteReceipts{
    "idres_write_receipts",
    "INSERT INTO import_receipts (job, item) SELECT $1, unnest($2::bigint[])"
    " ON CONFLICT DO NOTHING"};
inline constexpr Statement kForgetReceipts{"idres_forget_receipts",
                                           "DELETE FROM import_receipts WHERE job = $1"};

// Stream positions (engine/record.h, StreamPosition) of consumer group $1,
// topic $2: partition $3's row-locked, after the chunk's key locks; its
// first one inserted (two first writers meet on the primary key); moved;
// every partition's.
inline constexpr Statement kLockStreamPosition{
    "idres_lock_stream_position",
    "SELECT next_offset FROM stream_positions"
    " WHERE consumer_group = $1 AND topic = $2 AND partition = $3 FOR UPDATE"};
inline constexpr Statement kInsertStreamPosition{
    "idres_insert_stream_position",
    "INSERT INTO stream_positions (consumer_group, topic, partition, next_offset)"
    " VALUES ($1, $2, $3, $4)"};
inline constexpr Statement kMoveStreamPosition{
    "idres_move_stream_position",
    "UPDATE stream_positions SET next_offset = $4, updated_at = clock_timestamp()"
    " WHERE consumer_group = $1 AND topic = $2 AND partition = $3"};
inline constexpr Statement kReadStreamPositions{
    "idres_read_stream_positions",
    "SELECT partition, next_offset FROM stream_positions"
    " WHERE consumer_group = $1 AND topic = $2"};

// The change feed (docs/batch.md, "The change feed"; engine/detail/change_log.h).
// Change rows of a transaction that writes no person through the statements
// above (which append their own): persons $1, kinds $2, other ids $3 (0:
// none), inserted in that order.
inline constexpr Statement kAppendChanges{
    "idres_append_changes",
    "INSERT INTO changes (person_id, kind, other_id)"
    " SELECT x.p, x.k, NULLIF(x.o, 0)"
    " FROM unnest($1::bigint[], $2::text[], $3::bigint[]) WITH ORDINALITY AS x(p, k, o, n)"
    " ORDER BY x.n"};

// The sequencer's round commits durably whatever the server's
// synchronous_commit (docs/batch.md, "The change feed"): a position a consumer
// read must survive a crash.
inline constexpr Statement kSynchronousCommit{
    "idres_synchronous_commit", "SELECT set_config('synchronous_commit', 'on', true)"};

// The sequencer's round, under its advisory lock, in a statement of its own
// (so its snapshot postdates the lock wait): the first $1 committed rows
// without a position, in seq order, numbered on from the last position
// handed out. Returns the new last position. The rows go through an array,
// not a join: a join's generic plan scanned the whole table (checked with
// EXPLAIN on 1,000,000 rows); the array's rows are found by the primary key.
inline constexpr Statement kNumberChanges{
    "idres_number_changes",
    "WITH numbered AS (UPDATE changes c"
    "  SET position = (SELECT last_position FROM changes_head) + x.n"
    "  FROM unnest(ARRAY(SELECT seq FROM changes WHERE position IS NULL ORDER BY seq LIMIT $1))"
    "  WITH ORDINALITY AS x(seq, n) WHERE c.seq = x.seq RETURNING 1)"
    " UPDATE changes_head SET last_position = last_position + (SELECT count(*) FROM numbered)"
    " RETURNING last_position"};

// The changes after position $1, at most $2, as rows (position, person,
// kind, other, changed_at); and, when some committed row waits for a
// position, one more row whose position is NULL. (The first unnumbered
// seq, not EXISTS: the planner drops an EXISTS' ORDER BY, and then may
// scan the table for a row that is not there instead of the partial index.)
inline constexpr Statement kReadChanges{
    "idres_read_changes",
    "SELECT position, person_id, kind, other_id, " IDRES_SQL_MICROS(
        "changed_at") " FROM (SELECT * FROM changes WHERE position > $1 ORDER BY position"
                      " LIMIT $2) c"
                      " UNION ALL SELECT NULL, NULL, NULL, NULL, NULL WHERE (SELECT seq FROM"
                      " changes WHERE position IS NULL ORDER BY seq LIMIT 1) IS NOT NULL"};

// Test seam only (EngineSeams::skip_sequencer): the rows after seq $1, at
// most $2, with seq standing in for the position; the feed then misses a
// change whose transaction committed late.
inline constexpr Statement kReadChangesBySeq{
    "idres_read_changes_by_seq",
    "SELECT seq, person_id, kind, other_id, " IDRES_SQL_MICROS(
        "changed_at") " FROM changes WHERE seq > $1 ORDER BY seq LIMIT $2"};

// Planner statistics (engine/detail/stats_keeper.h): one process at a
// time analyzes ($1: LockKey("idres", "analyze"); false: another one is);
// the hot tables analyzed (those every chunk reads, and merges, read at
// every merge); the records table's rows as the analysis
// counted them (bigint: reltuples is a float, -1 before any analysis).
inline constexpr Statement kTryAnalyzeLock{"idres_try_analyze_lock",
                                           "SELECT pg_try_advisory_xact_lock($1)"};
inline constexpr Statement kAnalyzeHotTables{
    "idres_analyze_hot_tables",
    "ANALYZE persons, identifiers, match_keys, records, import_receipts, merges"};
inline constexpr Statement kRecordsAnalyzed{
    "idres_records_analyzed",
    "SELECT greatest(reltuples, 0)::bigint FROM pg_class WHERE oid = 'records'::regclass"};

inline constexpr Statement kPing{"idres_ping", "SELECT 1"};

// Run once on every new connection when prepared statements are on. The
// engine's statements take arrays, whose length a generic plan cannot know,
// so PostgreSQL's default (custom plans while they look cheaper) planned
// the candidate read and the person reads anew on every call: a third of
// the server's time per upsert. The generic plans are index scans at any
// store size (checked with EXPLAIN on 1,000,000 persons).
inline constexpr const char* kPreparedSession = "SET plan_cache_mode = force_generic_plan";

#undef IDRES_SQL_RECORD_EVENTS
#undef IDRES_SQL_RECORD_INSERT
#undef IDRES_SQL_RECORD_PARTS
#undef IDRES_SQL_TRAIT_VALUE
#undef IDRES_SQL_MICROS

// All of the above, prepared on every new connection when prepared
// statements are on.
std::span<const Statement> AllStatements();

}  // namespace idres::detail
