# Shared by scripts/schema-sql.sh and its test (tests/schema/): a store made
# the way idres makes one, and its schema as stable text. Source it after
# lib/common.sh; it defines functions and changes nothing.

# schema_migrate IDRES URL: migrates the empty database URL as every command
# that opens the engine does (MigrateStore: each step of schema/, then the
# model sync), through `idres reconcile --dry-run`, which writes nothing
# else. Its log goes to stderr.
schema_migrate() {
  "$1" reconcile --dry-run --progress off --database-url "$2" >/dev/null
}

# schema_dump URL: `pg_dump --schema-only` of URL, as text that depends on
# the schema alone: no owners or grants; none of pg_dump's own lines (the
# session SETs, the search_path reset, the version banner, the per-object
# header comments, the random \restrict key); no "public." prefix; single
# blank lines. pg_dump's order (by kind of object, then name) is kept. One
# SET stays: pg_dump writes functions before the tables their bodies may
# name, so the file only applies with function bodies unchecked.
schema_dump() {
  "$PG_BIN/pg_dump" --schema-only --no-owner --no-privileges --no-tablespaces "$1" |
    sed -E \
      -e '/^SET check_function_bodies = false;$/b' \
      -e '/^SET [a-z_]+ = /d' \
      -e "/^SELECT pg_catalog\.set_config\('search_path', '', false\);$/d" \
      -e '/^\\(un)?restrict /d' \
      -e '/^-- (Dumped (from|by)|PostgreSQL database dump|Name: )/d' \
      -e 's/\bpublic\.//g' |
    awk '
      /^--$/ { next }                       # what is left of the header comments
      /^$/ { blank = 1; next }
      { if (blank && printed) print ""; blank = 0; printed = 1; print }
    '
}

# schema_createdb ADMIN_URL NAME / schema_dropdb ADMIN_URL NAME: a scratch
# database on the cluster of ADMIN_URL.
schema_createdb() {
  psql -X -q -v ON_ERROR_STOP=1 "$1" -c "CREATE DATABASE \"$2\" TEMPLATE template0"
}
schema_dropdb() {
  psql -X -q "$1" -c "DROP DATABASE IF EXISTS \"$2\" WITH (FORCE)" >/dev/null 2>&1 || true
}

# schema_url URL NAME: URL with its database replaced by NAME.
schema_url() {
  printf '%s\n' "$1" | sed -E "s#^([a-z]+://[^/?]*)(/[^?]*)?#\\1/$2#"
}
