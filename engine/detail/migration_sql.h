// The statements of MigrateStore (engine/migrate.cc) and of the model sync
// (engine/detail/model_sync.h), as named constants with $n parameters. They
// run once per start, on a connection of their own, and are not prepared.
// Internal to engine/.
#pragma once

#include "engine/detail/statements.h"

namespace idres::detail {

// The applied steps. The one table that exists before step 1: the runner
// needs it to know what to apply. Its shape is the one the old schema.sql
// created, so a store from before the steps already has it, with version 1.
inline constexpr Statement kCreateVersionTable{
    "idres_create_version_table",
    "CREATE TABLE IF NOT EXISTS idres_schema_version ("
    " version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"};
inline constexpr Statement kAppliedVersions{
    "idres_applied_versions", "SELECT version FROM idres_schema_version ORDER BY version"};
inline constexpr Statement kRecordVersion{
    "idres_record_version", "INSERT INTO idres_schema_version (version) VALUES ($1::int)"};

// The fingerprint of the model that last shaped the store (step 2), and
// its replacement $1.
inline constexpr Statement kReadFingerprint{"idres_read_fingerprint",
                                            "SELECT fingerprint FROM idres_store_model"};
inline constexpr Statement kWriteFingerprint{
    "idres_write_fingerprint",
    "INSERT INTO idres_store_model (id, fingerprint) VALUES (true, $1)"
    " ON CONFLICT (id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, synced_at = now()"};

// Until COMMIT no one else writes what the model shapes: every write of the
// upsert, merge and reconcile paths inserts into or deletes from one of the
// two tables (ROW EXCLUSIVE), which this mode excludes; reads (and the
// upsert's row locks on persons) go on.
inline constexpr Statement kLockShapedTables{
    "idres_lock_shaped_tables", "LOCK TABLE identifiers, match_keys IN SHARE ROW EXCLUSIVE MODE"};

// Per type of $1 (the exclusive types): how many of its values more than one
// person holds (the primary key makes each row of a value another person's).
inline constexpr Statement kSharedExclusiveValues{
    "idres_shared_exclusive_values",
    "SELECT type, count(*) FROM (SELECT type FROM identifiers WHERE type = ANY($1::text[])"
    " GROUP BY type, value HAVING count(*) > 1) s GROUP BY type ORDER BY type"};

// is_unique set from the model: true exactly for the types $1. Returns how
// many rows changed.
inline constexpr Statement kSetUniqueFlags{
    "idres_set_unique_flags",
    "WITH u AS (UPDATE identifiers SET is_unique = (type = ANY($1::text[]))"
    " WHERE is_unique <> (type = ANY($1::text[])) RETURNING 1) SELECT count(*) FROM u"};

// The rebuild of match_keys: all of them go, then the live persons after id
// $1, at most $2 of them, are read with their identifiers (a person without
// any as one row of NULLs), and their keys inserted ($1 key, $2 person).
inline constexpr Statement kClearMatchKeys{"idres_clear_match_keys", "DELETE FROM match_keys"};
inline constexpr Statement kReadPersonChunk{
    "idres_read_person_chunk",
    "SELECT p.id, r.id, v.t, v.v"
    " FROM (SELECT id FROM persons WHERE id > $1::bigint ORDER BY id LIMIT $2::int) p"
    " LEFT JOIN records r ON r.person_id = p.id"
    " LEFT JOIN LATERAL unnest(r.types, r.vals) AS v(t, v) ON true ORDER BY p.id, r.id"};
inline constexpr Statement kInsertMatchKeys{
    "idres_insert_match_keys",
    "INSERT INTO match_keys (key, person_id) SELECT * FROM unnest($1::bigint[], $2::bigint[])"};

}  // namespace idres::detail
