#!/usr/bin/env bash
# The README's test command. On a fresh Debian 12 machine: installs missing
# dependencies, builds (Release), starts a throwaway PostgreSQL 15 cluster and
# a PgBouncer in front of it, runs every test through ctest, and removes the
# cluster afterwards, also when tests fail. Exit status 0 only when all pass.
# Extra arguments go to ctest (e.g. scripts/test.sh -R engine).
# IDRES_SANITIZE=1 builds and tests with AddressSanitizer + UBSan instead
# (in build-asan/; a separate command: it doubles the run's time).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

bash "$IDRES_ROOT/scripts/install-deps.sh"
if [ "${IDRES_SANITIZE:-0}" = 1 ]; then
  BUILD="${IDRES_TEST_BUILD_DIR:-$IDRES_ROOT/build-asan}"
  build_idres "$BUILD" RelWithDebInfo -DIDRES_SANITIZE=ON -DIDRES_BUILD_BENCH=OFF
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
  export LSAN_OPTIONS="suppressions=$IDRES_ROOT/scripts/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
else
  BUILD="${IDRES_TEST_BUILD_DIR:-$IDRES_ROOT/build}"
  build_idres "$BUILD" Release
fi

RUN_DIR="$(mktemp -d /tmp/idres-test.XXXXXX)"
chmod 755 "$RUN_DIR"
give_to_pg "$RUN_DIR"
cleanup() {
  pgbouncer_stop "$RUN_DIR"
  pg_stop "$RUN_DIR/data" immediate
  rm -rf "$RUN_DIR"
}
trap cleanup EXIT

# A random start: two test runs on one machine must not pick the same ports.
# Below the ephemeral range (32768-60999), where outgoing connections take
# their local ports.
PG_PORT="$(free_port $((20000 + RANDOM % 2000)))"
pg_init "$RUN_DIR/data"
# fsync off: the cluster is thrown away; it only has to be correct, not durable.
pg_start "$RUN_DIR/data" "$PG_PORT" "$RUN_DIR" "$RUN_DIR/postgres.log" \
  -c max_connections=300 -c max_locks_per_transaction=256 -c fsync=off \
  -c synchronous_commit=off -c full_page_writes=off
BOUNCER_PORT="$(free_port $((PG_PORT + 1)))"
pgbouncer_start "$RUN_DIR" "$BOUNCER_PORT" "$PG_PORT"
log "throwaway cluster on 127.0.0.1:$PG_PORT, pgbouncer on $BOUNCER_PORT ($RUN_DIR)"

export IDRES_TEST_DATABASE_URL="postgresql://postgres@127.0.0.1:$PG_PORT/postgres"
export IDRES_TEST_PGBOUNCER_PORT="$BOUNCER_PORT"
cd "$BUILD"
ctest --output-on-failure -j "$(nproc)" --timeout 900 "$@"
