// The SQL of the fast preload (Cluster::Preload): persons 1..$1 written by
// generate_series in exactly the shape the engine writes, so the engine finds
// them as it would find its own. Person i holds
//   email       p<i>@preload.example.org
//   phone       +1650<2000000+i>            (E.164)
//   name        person <i>
//   birth_date  1950-01-01 + ((i - 1) / 2 % 20000) days: persons 2p+1 and
//               2p+2, whom scenario (d) bridges, share it (different
//               birth dates would keep them apart)
//   postal_code 10000 + (i % 90000)
// and one match key: the blocking key (normalize/lock_key.h) of the built-in
// rule date_postal_code over its birth date and postal code, computed in SQL with
// sha256(); its other blocking keys are left out, which the workload does
// not need. The suite checks at start-up that the C++ lock planner computes
// that key too (PreloadShapeProblem in preload_check.h). Must agree with
// workload.cc.
#pragma once

namespace idres::bench {

inline constexpr const char* kPreloadSession =
    "SET maintenance_work_mem = '256MB'; SET synchronous_commit = off";

// Secondary indexes are rebuilt once at the end instead of being maintained
// row by row: kPreloadCreateIndexes creates exactly what schema/0001_initial.sql
// did.
inline constexpr const char* kPreloadDropIndexes =
    "DROP INDEX IF EXISTS identifiers_unique_value, identifiers_type_value, match_keys_person";
inline constexpr const char* kPreloadCreateIndexes =
    "CREATE UNIQUE INDEX identifiers_unique_value ON identifiers (type, value) WHERE is_unique;"
    " CREATE INDEX identifiers_type_value ON identifiers (type, value);"
    " CREATE INDEX match_keys_person ON match_keys (person_id)";

inline constexpr const char* kPreloadPersons =
    "INSERT INTO persons (id, traits, created_at, updated_at) OVERRIDING SYSTEM VALUE "
    "SELECT i, jsonb_build_object('plan', 'basic', 'visits', i % 100), "
    "       now() - interval '1 day', now() - interval '1 day' "
    "FROM generate_series(1, $1::bigint) AS i";

inline constexpr const char* kPreloadIdentifiers =
    "INSERT INTO identifiers (person_id, type, value, is_unique) "
    "SELECT i, t.type, t.value, t.is_unique FROM generate_series(1, $1::bigint) AS i, "
    "LATERAL (VALUES ('email', 'p' || i || '@preload.example.org', false), "
    "                ('phone', '+1650' || (2000000 + i), false), "
    "                ('name', 'person ' || i, false), "
    "                ('birth_date', (date '1950-01-01' + ((i - 1) / 2 % 20000)::int)::text, false), "
    "                ('postal_code', (10000 + i % 90000)::text, false)) "
    "  AS t(type, value, is_unique)";

// Each person's one record (source bench-preload, id p<i>): the same values,
// sorted by (type, value), and traits.
inline constexpr const char* kPreloadRecords =
    "INSERT INTO records (source, record_id, person_id, types, vals, traits, created_at,"
    " updated_at) "
    "SELECT 'bench-preload', 'p' || i, i,"
    "  ARRAY['birth_date', 'email', 'name', 'phone', 'postal_code'],"
    "  ARRAY[(date '1950-01-01' + ((i - 1) / 2 % 20000)::int)::text, 'p' || i || '@preload.example.org',"
    "        'person ' || i, '+1650' || (2000000 + i), (10000 + i % 90000)::text],"
    "  jsonb_build_object('plan', 'basic', 'visits', i % 100),"
    "  now() - interval '1 day', now() - interval '1 day' "
    "FROM generate_series(1, $1::bigint) AS i";

// Parts "<rule>.<part>:<value>" sorted bytewise (birth_date < postal_code),
// joined by U+001F.
inline constexpr const char* kPreloadMatchKeys =
    "INSERT INTO match_keys (key, person_id) "
    "SELECT ('x' || encode(substr(sha256(convert_to("
    "  'date_postal_code.birth_date.value:' || "
    "  (date '1950-01-01' + ((i - 1) / 2 % 20000)::int)::text || E'\\x1f' || "
    "  'date_postal_code.postal_code.value:' || (10000 + i % 90000)::text, 'UTF8')), 1, 8),"
    "  'hex'))::bit(64)::bigint, i "
    "FROM generate_series(1, $1::bigint) AS i";

inline constexpr const char* kPreloadIdentity =
    "SELECT setval(pg_get_serial_sequence('persons', 'id'), $1::bigint)";

// Person 1's identifiers and match key, for the start-up shape check.
inline constexpr const char* kPreloadSample =
    "SELECT type, value FROM identifiers WHERE person_id = 1 ORDER BY type, value";
inline constexpr const char* kPreloadSampleKey = "SELECT key FROM match_keys WHERE person_id = 1";

}  // namespace idres::bench
