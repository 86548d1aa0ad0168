#!/usr/bin/env bash
# schema.sql cannot drift from schema/ (docs/operations.md, "The store and its
# migrations"). On the suite's cluster (IDRES_TEST_DATABASE_URL) two empty
# databases are made: one is migrated by the built idres as every command
# migrates a store, the other gets schema.sql through psql, which must run
# without an error. Their `pg_dump --schema-only`, cleaned alike
# (scripts/lib/schema.sh), must be equal; if not, the difference is printed
# with the command that regenerates the file.
#
# Run by ctest (tests/schema/CMakeLists.txt) with IDRES_BINARY and
# IDRES_SOURCE_DIR; by hand:
#   IDRES_BINARY=build/app/idres IDRES_SOURCE_DIR=. \
#     IDRES_TEST_DATABASE_URL=postgresql://... bash tests/schema/schema_sql_pgtest.sh
set -euo pipefail
source "$IDRES_SOURCE_DIR/scripts/lib/common.sh"
source "$IDRES_SOURCE_DIR/scripts/lib/schema.sh"

ADMIN_URL="${IDRES_TEST_DATABASE_URL:?IDRES_TEST_DATABASE_URL names the cluster to test on}"
MIGRATED="idres_schema_migrated_$$"
FROM_FILE="idres_schema_from_file_$$"
WORK="$(mktemp -d /tmp/idres-schema-test.XXXXXX)"
cleanup() {
  schema_dropdb "$ADMIN_URL" "$MIGRATED"
  schema_dropdb "$ADMIN_URL" "$FROM_FILE"
  rm -rf "$WORK"
}
trap cleanup EXIT

schema_createdb "$ADMIN_URL" "$MIGRATED"
schema_createdb "$ADMIN_URL" "$FROM_FILE"
schema_migrate "$IDRES_BINARY" "$(schema_url "$ADMIN_URL" "$MIGRATED")" 2>"$WORK/migrate.log" ||
  { cat "$WORK/migrate.log" >&2; echo "FAIL: idres could not migrate an empty database" >&2; exit 1; }
psql -X -q -v ON_ERROR_STOP=1 -f "$IDRES_SOURCE_DIR/schema.sql" \
  "$(schema_url "$ADMIN_URL" "$FROM_FILE")" >/dev/null ||
  { echo "FAIL: schema.sql does not apply to an empty database" >&2; exit 1; }

schema_dump "$(schema_url "$ADMIN_URL" "$MIGRATED")" >"$WORK/migrated.sql"
schema_dump "$(schema_url "$ADMIN_URL" "$FROM_FILE")" >"$WORK/from_file.sql"
# An empty dump would make the comparison vacuous.
grep -q '^CREATE TABLE persons ' "$WORK/migrated.sql" ||
  { echo "FAIL: the migrated store's dump has no persons table" >&2; exit 1; }
if ! diff -u --label "schema.sql, applied" --label "schema/ steps, migrated by idres" \
    "$WORK/from_file.sql" "$WORK/migrated.sql"; then
  echo "FAIL: schema.sql differs from what idres migrates; regenerate it:" \
    "scripts/schema-sql.sh" >&2
  exit 1
fi
echo "schema.sql equals the store idres migrates ($(grep -c '^CREATE' "$WORK/migrated.sql") CREATE statements)"
