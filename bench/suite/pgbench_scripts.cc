#include "bench/suite/pgbench_scripts.h"

#include "engine/engine.h"

// pgbench reads ":name" as a variable even inside a literal, so the time
// format spells its colons E'\x3a'. A variable used twice becomes two
// parameters, so each is cast where its type matters.
namespace idres::bench {
namespace {

constexpr const char* kRandomKey = "random(-4000000000000000000, 4000000000000000000)";

// One round trip: `commands` as one pipeline.
std::string Pipeline(const std::string& commands) {
  return "\\startpipeline\n" + commands + "\\endpipeline\n";
}

// The engine's opening statements (BeginStatements).
std::string Begin(const std::string& keys) {
  return "BEGIN ISOLATION LEVEL READ COMMITTED;\n"
         "SET LOCAL lock_timeout = '" +
         std::to_string(EngineOptions{}.lock_timeout.count()) +
         "ms';\n"
         "SELECT pg_advisory_xact_lock(k) FROM unnest(ARRAY[" +
         keys + "]::bigint[]) AS k ORDER BY k;\n";
}

// kReadCandidates for the lookups (types, values) and match keys given.
std::string Candidates(const std::string& types, const std::string& values,
                       const std::string& keys) {
  return "WITH c AS (\n"
         "  SELECT i.person_id FROM identifiers i\n"
         "  JOIN unnest(ARRAY[" +
         types + "]::text[], ARRAY[" + values +
         "]::text[]) AS r(type, value)\n"
         "  ON i.type = r.type AND i.value = r.value\n"
         "  UNION\n"
         "  SELECT m.person_id FROM match_keys m WHERE m.key = ANY(" +
         keys +
         "::bigint[]))\n"
         "SELECT i.person_id, i.type, i.value FROM identifiers i\n"
         "JOIN c ON i.person_id = c.person_id ORDER BY i.person_id;\n";
}

// IDRES_SQL_TRAITS over three ARRAY[...] bodies.
std::string Traits(const std::string& keys, const std::string& kinds, const std::string& values) {
  return "(SELECT COALESCE(jsonb_object_agg(tk, CASE tkind WHEN 'number' THEN "
         "to_jsonb(tv::numeric)\n"
         "      WHEN 'boolean' THEN to_jsonb(tv::boolean) ELSE to_jsonb(tv) END), '{}'::jsonb)\n"
         "    FROM unnest(ARRAY[" +
         keys + "]::text[], ARRAY[" + kinds + "]::text[], ARRAY[" + values +
         "]::text[]) AS t(tk, tkind, tv))";
}

// kLockPersons and kReadPersons of the persons in ARRAY[ids].
std::string LockAndReread(const std::string& ids) {
  const std::string any = "ANY(ARRAY[" + ids + "]::bigint[])";
  return "SELECT id FROM persons WHERE id = " + any + " ORDER BY id FOR UPDATE;\n" +
         "SELECT id, 'p', to_char(created_at AT TIME ZONE 'UTC', "
         "E'YYYY-MM-DD\"T\"HH24\\x3aMI\\x3aSS.US\"Z\"'),\n"
         "       to_char(updated_at AT TIME ZONE 'UTC', "
         "E'YYYY-MM-DD\"T\"HH24\\x3aMI\\x3aSS.US\"Z\"'), NULL\n"
         "  FROM persons WHERE id = " +
         any +
         "\n"
         "UNION ALL SELECT person_id, 'i', type, value, NULL FROM identifiers\n"
         "  WHERE person_id = " +
         any +
         "\n"
         "UNION ALL SELECT p.id, 't', t.key, jsonb_typeof(t.value), t.value #>> '{}'\n"
         "  FROM persons p, jsonb_each(p.traits) AS t WHERE p.id = " +
         any + ";\n";
}

// kWritePerson of person `id`: no new identifier, match keys ARRAY[keys]
// (or '{}'), the traits given.
std::string Write(const std::string& id, const std::string& keys, const std::string& traits) {
  return "WITH i AS (INSERT INTO identifiers (person_id, type, value, is_unique)\n"
         "    SELECT " +
         id +
         "::bigint, x.t, x.v, x.u FROM unnest('{}'::text[], '{}'::text[], '{}'::boolean[]) "
         "AS x(t, v, u)\n"
         "    ON CONFLICT (person_id, type, value) DO NOTHING),\n"
         "  m AS (INSERT INTO match_keys (key, person_id) SELECT k, " +
         id + "::bigint FROM unnest(" + keys +
         "::bigint[]) AS k\n"
         "    ON CONFLICT DO NOTHING)\n"
         "UPDATE persons SET traits = " +
         traits + ", updated_at = clock_timestamp()\n  WHERE id = " + id + "::bigint;\n";
}

// The update of one person of first..persons, without the \set lines.
std::string UpdateBody() {
  return Pipeline(Begin(":k1") +
                  Candidates("'email'", "'p' || :id || '@preload.example.org'", "'{}'")) +
         Pipeline(LockAndReread(":id")) +
         Pipeline(Write(":id", "'{}'",
                        Traits("'plan', 'visits'", "'string', 'number'", "'basic', :k1")) +
                  "COMMIT;\n");
}

std::string UpdateSets() {
  return std::string("\\set id random(:first, :persons)\n\\set k1 ") + kRandomKey + "\n";
}

// kMoveIdentifiers and kRedirectAndDelete: :absorbed into :survivor.
std::string Merge() {
  return "WITH moved AS (DELETE FROM identifiers WHERE person_id = "
         "ANY(ARRAY[:absorbed]::bigint[])\n"
         "  RETURNING type, value, is_unique, created_at)\n"
         "INSERT INTO identifiers (person_id, type, value, is_unique, created_at)\n"
         "SELECT DISTINCT ON (type, value) :survivor::bigint, type, value, is_unique, "
         "created_at FROM moved\n"
         "ORDER BY type, value, created_at ON CONFLICT (person_id, type, value) DO NOTHING;\n"
         "WITH r AS (UPDATE merges SET survivor_id = :survivor::bigint\n"
         "    WHERE survivor_id = ANY(ARRAY[:absorbed]::bigint[]) RETURNING 1),\n"
         "  n AS (INSERT INTO merges (absorbed_id, survivor_id, reason)\n"
         "    SELECT x, :survivor::bigint, 'bridged by an upsert' "
         "FROM unnest(ARRAY[:absorbed]::bigint[]) AS x RETURNING 1),\n"
         "  k AS (DELETE FROM match_keys WHERE person_id = ANY(ARRAY[:absorbed]::bigint[]) "
         "RETURNING 1)\n"
         "DELETE FROM persons WHERE id = ANY(ARRAY[:absorbed]::bigint[]);\n";
}

}  // namespace

std::string PgbenchNewScript() {
  const std::string sets = std::string("\\set n random(1, 9000000000000000)\n") + "\\set k1 " +
                           kRandomKey + "\n\\set k2 " + kRandomKey + "\n\\set k3 " + kRandomKey +
                           "\n";
  const std::string email = "'g' || :n || '@pgbench.example.org'";
  const std::string phone = "'+1653' || :n";
  return sets +
         Pipeline(Begin(":k1, :k2, :k3") +
                  Candidates("'email', 'phone'", email + ", " + phone, "ARRAY[:k3]")) +
         "\\startpipeline\n"
         "WITH p AS (INSERT INTO persons (traits, created_at, updated_at) SELECT " +
         Traits("'plan', 'seq'", "'string', 'number'", "'trial', :n") +
         ", c.t, c.t FROM (SELECT clock_timestamp() AS t) c RETURNING id),\n"
         "  i AS (INSERT INTO identifiers (person_id, type, value, is_unique)\n"
         "    SELECT p.id, x.t, x.v, x.u FROM p,\n"
         "    unnest(ARRAY['birth_date', 'email', 'name', 'phone', 'postal_code']::text[],\n"
         "           ARRAY['1990-01-01', " +
         email + ", 'pgbench person ' || :n,\n                 " + phone +
         ", '12345']::text[],\n"
         "           ARRAY[false, true, false, true, false]::boolean[]) AS x(t, v, u)),\n"
         "  m AS (INSERT INTO match_keys (key, person_id) SELECT k, p.id FROM p, "
         "unnest(ARRAY[:k3]::bigint[]) AS k)\n"
         "SELECT id FROM p;\n"
         "COMMIT;\n"
         "\\endpipeline\n";
}

std::string PgbenchUpdateScript() { return UpdateSets() + UpdateBody(); }

std::string PgbenchBridgeScript() {
  std::string keys = "ARRAY[:m::bigint";
  for (int i = 1; i < 8; ++i) keys += ", :m::bigint + " + std::to_string(i);
  keys += "]";
  return std::string("\\set round :round + 1\n") +
         "\\set pair :client_id + :nclients * (:round - 1)\n" + "\\if 2 * :pair + 2 <= :half\n" +
         "\\set survivor 2 * :pair + 1\n\\set absorbed 2 * :pair + 2\n" +
         "\\set phone 2000000 + :absorbed\n" + "\\set k1 " + kRandomKey + "\n\\set k2 " +
         kRandomKey + "\n\\set m " + kRandomKey + "\n" +
         Pipeline(Begin(":k1, :k2") +
                  Candidates("'email', 'phone'",
                             "'p' || :survivor || '@preload.example.org', '+1650' || :phone",
                             "'{}'")) +
         Pipeline(LockAndReread(":survivor, :absorbed")) +
         Pipeline(Merge() +
                  Write(":survivor", keys,
                        Traits("'bridged_by', 'plan', 'visits'", "'number', 'string', 'number'",
                               ":round, 'basic', :absorbed")) +
                  "COMMIT;\n") +
         "\\else\n" + UpdateSets() + UpdateBody() + "\\endif\n";
}

}  // namespace idres::bench
