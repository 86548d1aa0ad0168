#!/usr/bin/env bash
# The README's benchmark command (issue 7). On a fresh Debian 12 machine:
# installs missing dependencies, builds (Release), starts a throwaway
# PostgreSQL 15 cluster (removed afterwards, also on failure), runs the suite
# (bench/suite, see BENCHMARKS.md) against it, and writes the table, the JSON
# and the chart. With IDRES_DATABASE_URL set, runs against that cluster
# instead (its admin URL: the suite creates and drops its own databases).
#
#   scripts/bench.sh              the default run, about 15 minutes on 2 cores
#   scripts/bench.sh --quick      a smoke run of a few minutes
#   scripts/bench.sh --million    the full run: scale against 1,000,000 persons
# Other arguments go to idres_bench (--help lists them). Results land in
# $IDRES_BENCH_OUT (default build/bench-results/<UTC time>/); the build dir
# is $IDRES_BENCH_BUILD_DIR (default build/, shared with test.sh). Exit status 0
# only when every store check passed; missed goals do not fail the run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

BUILD="${IDRES_BENCH_BUILD_DIR:-$IDRES_ROOT/build}"
# IDRES_BENCH_SKIP_BUILD=1 measures an existing Release build of $BUILD as is.
if [ "${IDRES_BENCH_SKIP_BUILD:-0}" != 1 ]; then
  bash "$IDRES_ROOT/scripts/install-deps.sh"
  build_idres "$BUILD" Release
fi

OUT="${IDRES_BENCH_OUT:-$BUILD/bench-results/$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$OUT"

# The machine, and what else was running when the run began and ended: on a
# shared machine the figures are only as good as this record.
machine() {
  {
    echo "# $1: $(date -u +%FT%TZ)"
    uname -a
    lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|CPU max MHz|L3)' || true
    free -h
    echo "load: $(cat /proc/loadavg)"
    echo "busiest processes now:"
    top -b -n 1 | sed -n "7,16p"
    echo
  } >>"$OUT/machine.txt"
}

URL="${IDRES_DATABASE_URL:-}"
if [ -z "$URL" ]; then
  RUN_DIR="$(mktemp -d /tmp/idres-bench.XXXXXX)"
  chmod 755 "$RUN_DIR"
  give_to_pg "$RUN_DIR"
  cleanup() {
    pg_stop "$RUN_DIR/data" immediate
    rm -rf "$RUN_DIR"
  }
  trap cleanup EXIT
  PG_PORT="$(free_port "${IDRES_BENCH_PG_PORT:-56500}")"
  pg_init "$RUN_DIR/data"
  # Durable data files (fsync on); commits do not wait for their WAL flush
  # (synchronous_commit off), the same for idres, the naive path and pgbench.
  # Enough shared memory to hold the 1,000,000-person store (about 1.5 GB
  # with its indexes; with 1 GB every candidate read missed the cache), and
  # enough WAL that its preload does not checkpoint every few seconds.
  # Updates spread over a large store write a full-page image of nearly
  # every page they touch; wal_compression=lz4 shrinks those 5-fold
  # (measured: 5.2 KB -> 1.1 KB of WAL per update at 1,000,000 persons).
  # shellcheck disable=SC2086
  pg_start "$RUN_DIR/data" "$PG_PORT" "$RUN_DIR" "$RUN_DIR/postgres.log" \
    -c max_connections=300 -c max_locks_per_transaction=256 \
    -c shared_buffers=3GB -c synchronous_commit=off -c max_wal_size=4GB \
    -c wal_compression=lz4 \
    ${IDRES_BENCH_PG_OPTS:-}
  URL="postgresql://postgres@127.0.0.1:$PG_PORT/postgres"
  log "throwaway cluster on 127.0.0.1:$PG_PORT ($RUN_DIR)"
fi

machine "start"
set +e
"$BUILD/bench/suite/idres_bench" --database-url "$URL" --idres "$BUILD/app/idres" \
  --json "$OUT/results.json" --chart "$OUT/throughput.svg" --work-dir "$OUT/work" "$@" \
  | tee "$OUT/results.txt"
status=${PIPESTATUS[0]}
set -e
machine "end"
log "results in $OUT (results.txt, results.json, throughput.svg, machine.txt)"
exit "$status"
