#!/usr/bin/env bash
# The README's run command. On a fresh Debian 12 machine: installs missing
# dependencies, builds (Release), starts the embedded PostgreSQL 15 cluster
# kept in .idres/pg (created on the first run, reused and kept afterwards;
# IDRES_STATE_DIR puts .idres elsewhere, IDRES_PG_PORT moves it off 54329),
# and serves on 127.0.0.1:8080 (`idres serve` migrates the store first: schema/).
# With IDRES_DATABASE_URL set (or --database-url given) it uses that database
# and starts no cluster. Ctrl-C stops the service, then the embedded cluster
# (its data stays in .idres/pg for the next run). Extra arguments go to
# `idres serve`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

bash "$IDRES_ROOT/scripts/install-deps.sh"
BUILD="${IDRES_BUILD_DIR:-$IDRES_ROOT/build}"
IDRES_BUILD_TARGET=idres build_idres "$BUILD" Release
IDRES="$BUILD/app/idres"

external=0
[ -n "${IDRES_DATABASE_URL:-}" ] && external=1
for arg in "$@"; do case "$arg" in --database-url*) external=1 ;; esac; done
if [ "$external" -eq 1 ]; then
  log "using the database given; no embedded cluster"
  exec "$IDRES" serve "$@"
fi

STATE="${IDRES_STATE_DIR:-$IDRES_ROOT/.idres}"
DATA="$STATE/pg/data"
PORT="${IDRES_PG_PORT:-54329}"
mkdir -p "$STATE/pg"
chmod 755 "$STATE" "$STATE/pg"
give_to_pg "$STATE/pg"
if [ ! -f "$DATA/PG_VERSION" ]; then
  log "creating the embedded cluster in $DATA"
  pg_init "$DATA"
fi
if ! pg_running "$DATA"; then
  # autovacuum_naptime: autovacuum looks every 5 s instead of every minute,
  # so it follows a bulk load (docs/operations.md, "PostgreSQL settings").
  pg_start "$DATA" "$PORT" "$STATE/pg" "$STATE/pg/postgres.log" -c max_connections=200 \
    -c autovacuum_naptime=5s
fi
log "embedded PostgreSQL on 127.0.0.1:$PORT (data in $DATA)"
if ! "$PG_BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -Atqc \
  "SELECT 1 FROM pg_database WHERE datname = 'idres'" | grep -q 1; then
  "$PG_BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qc "CREATE DATABASE idres"
fi
export IDRES_DATABASE_URL="postgresql://postgres@127.0.0.1:$PORT/idres"

stop_cluster() {
  log "stopping the embedded cluster (data kept in $DATA)"
  pg_stop "$DATA" fast
}
trap stop_cluster EXIT
# Ctrl-C reaches idres (same process group); it stops gracefully, then the
# EXIT trap stops the cluster.
trap ':' INT
"$IDRES" serve "$@" || status=$?
exit "${status:-0}"
