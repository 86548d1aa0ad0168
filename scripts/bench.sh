#!/usr/bin/env bash
# The README's benchmark command. On a fresh Debian 12 machine:
# installs missing dependencies, builds (Release), starts a throwaway
# PostgreSQL 15 cluster (removed afterwards, also on failure), runs the suite
# (bench/suite, see BENCHMARKS.md) against it, and writes the table, the JSON
# and the chart. With IDRES_DATABASE_URL set, runs against that cluster
# instead (its admin URL: the suite creates and drops its own databases).
#
#   scripts/bench.sh              the default run, about 15 minutes on 2 cores
#   scripts/bench.sh --quick      a smoke run of a few minutes
#   scripts/bench.sh --million    the full run: scale against 1,000,000 persons
#   scripts/bench.sh --split-cores  the throwaway cluster on the first half of
#                                 the CPUs, the suite (and the `idres serve`,
#                                 pgbench and importers it starts) on the rest
#   scripts/bench.sh --consume    instead of the suite: `idres consume` against
#                                 `idres import` of the same records, and the
#                                 produce-to-commit latency (idres_bench_consume)
#   scripts/bench.sh --decide     instead of the suite: what deciding a record
#                                 costs the matcher (idres_bench_decide; no
#                                 database)
# Other arguments go to idres_bench (--help lists them). Results land in
# $IDRES_BENCH_OUT (default build/bench-results/<UTC time>/); the build dir
# is $IDRES_BENCH_BUILD_DIR (default build/, shared with test.sh). Exit status 0
# only when every store check passed; missed goals do not fail the run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

BUILD="${IDRES_BENCH_BUILD_DIR:-$IDRES_ROOT/build}"

# --split-cores: on one machine the server, the load generators and the
# database take CPU from each other, so whatever the server spends per
# request is taken from PostgreSQL, while pgbench's client is nearly free.
# Production gives the database a host of its own; splitting the CPUs comes
# closest to that here.
SPLIT_CORES=0
CONSUME=0
DECIDE=0
SUITE_ARGS=()
for arg in "$@"; do
  case "$arg" in
    --split-cores) SPLIT_CORES=1 ;;
    --consume) CONSUME=1 ;;
    --decide) DECIDE=1 ;;
    *) SUITE_ARGS+=("$arg") ;;
  esac
done
CPUS="$(nproc)"
DB_CPUS="" APP_CPUS=""
if [ "$SPLIT_CORES" = 1 ]; then
  [ "$CPUS" -ge 2 ] || { log "--split-cores needs at least 2 CPUs"; exit 2; }
  [ -z "${IDRES_DATABASE_URL:-}" ] || { log "--split-cores needs the throwaway cluster"; exit 2; }
  DB_CPUS="0-$((CPUS / 2 - 1))"
  APP_CPUS="$((CPUS / 2))-$((CPUS - 1))"
fi
# IDRES_BENCH_SKIP_BUILD=1 measures an existing Release build of $BUILD as is.
if [ "${IDRES_BENCH_SKIP_BUILD:-0}" != 1 ]; then
  bash "$IDRES_ROOT/scripts/install-deps.sh"
  build_idres "$BUILD" Release
fi

OUT="${IDRES_BENCH_OUT:-$BUILD/bench-results/$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$OUT"
if [ "$DECIDE" = 1 ]; then
  "$BUILD/bench/idres_bench_decide" "${SUITE_ARGS[@]}" | tee "$OUT/results.txt"
  exit "${PIPESTATUS[0]}"
fi

# The machine, and what else was running when the run began and ended: on a
# shared machine the figures are only as good as this record.
machine() {
  {
    echo "# $1: $(date -u +%FT%TZ)"
    uname -a
    lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|CPU max MHz|L3)' || true
    free -h
    echo "load: $(cat /proc/loadavg)"
    grep -E '^HugePages_(Total|Free|Rsvd)' /proc/meminfo || true
    if [ -n "$DB_CPUS" ]; then
      echo "split cores: database on CPUs $DB_CPUS, suite, idres serve, pgbench on $APP_CPUS"
    fi
    echo "busiest processes now:"
    top -b -n 1 | sed -n "7,16p"
    echo
  } >>"$OUT/machine.txt"
}

# The throwaway cluster's settings. Durable data files (fsync on); commits
# do not wait for their WAL flush (synchronous_commit off), the same for
# idres, the naive path and pgbench. Enough shared memory to hold the
# 1,000,000-person store (about 1.5 GB with its indexes; with 1 GB every
# candidate read missed the cache), and enough WAL that its preload does not
# checkpoint every few seconds. Updates spread over a large store write a
# full-page image of nearly every page they touch; wal_compression=lz4
# shrinks those 5-fold (measured: 5.2 KB -> 1.1 KB of WAL per update at
# 1,000,000 persons). autovacuum_naptime as docs/operations.md advises and
# scripts/run.sh's embedded cluster has it ("PostgreSQL settings").
PG_SETTINGS=(-c max_connections=300 -c max_locks_per_transaction=256
  -c shared_buffers=3GB -c synchronous_commit=off -c max_wal_size=4GB
  -c wal_compression=lz4 -c autovacuum_naptime=5s)
# shellcheck disable=SC2206
PG_SETTINGS+=(${IDRES_BENCH_PG_OPTS:-})

# Huge pages for the cluster's shared memory, as the PostgreSQL manual
# advises for a large shared_buffers (its default huge_pages=try takes them
# when the kernel has them reserved). In 4 kB pages every new connection
# faults in each page of shared_buffers it touches: on this VM a fresh
# connection read the 1,000,000-person store at 9,000 candidate reads/s,
# 20,000/s after 20 s, and 23,000/s at once with huge pages. Reserved only
# when this script may (root), released at exit; IDRES_BENCH_HUGE_PAGES=0
# measures without them.
HUGE_PAGES_BEFORE=""
reserve_huge_pages() {
  local data="$1" need
  [ "${IDRES_BENCH_HUGE_PAGES:-1}" = 1 ] || return 0
  if [ ! -w /proc/sys/vm/nr_hugepages ]; then
    log "cannot reserve huge pages (not root): shared memory in 4 kB pages"
    return 0
  fi
  need="$(as_pg "$PG_BIN/postgres" -D "$data" -C shared_memory_size_in_huge_pages \
    "${PG_SETTINGS[@]}")"
  HUGE_PAGES_BEFORE="$(cat /proc/sys/vm/nr_hugepages)"
  echo $((HUGE_PAGES_BEFORE + need)) >/proc/sys/vm/nr_hugepages
  log "reserved $(($(cat /proc/sys/vm/nr_hugepages) - HUGE_PAGES_BEFORE)) of $need huge pages"
}
release_huge_pages() {
  if [ -n "$HUGE_PAGES_BEFORE" ]; then echo "$HUGE_PAGES_BEFORE" >/proc/sys/vm/nr_hugepages; fi
}

# Pins a running cluster to CPUS: the postmaster and its children now;
# backends forked later inherit the postmaster's affinity.
pin_cluster() {
  local postmaster
  postmaster="$(head -1 "$1/postmaster.pid")"
  for pid in "$postmaster" $(pgrep -P "$postmaster"); do
    taskset -a -p -c "$2" "$pid" >/dev/null
  done
  log "database pinned to CPUs $2"
}

URL="${IDRES_DATABASE_URL:-}"
if [ -z "$URL" ]; then
  RUN_DIR="$(mktemp -d /tmp/idres-bench.XXXXXX)"
  chmod 755 "$RUN_DIR"
  give_to_pg "$RUN_DIR"
  cleanup() {
    pg_stop "$RUN_DIR/data" immediate
    release_huge_pages
    rm -rf "$RUN_DIR"
  }
  trap cleanup EXIT
  PG_PORT="$(free_port "${IDRES_BENCH_PG_PORT:-56500}")"
  pg_init "$RUN_DIR/data"
  reserve_huge_pages "$RUN_DIR/data"
  pg_start "$RUN_DIR/data" "$PG_PORT" "$RUN_DIR" "$RUN_DIR/postgres.log" "${PG_SETTINGS[@]}"
  URL="postgresql://postgres@127.0.0.1:$PG_PORT/postgres"
  if [ -n "$DB_CPUS" ]; then pin_cluster "$RUN_DIR/data" "$DB_CPUS"; fi
  log "throwaway cluster on 127.0.0.1:$PG_PORT ($RUN_DIR)"
fi

machine "start"
PIN=()
if [ -n "$APP_CPUS" ]; then PIN=(taskset -c "$APP_CPUS"); fi
set +e
if [ "$CONSUME" = 1 ]; then
  "${PIN[@]}" "$BUILD/bench/idres_bench_consume" --database-url "$URL" --idres "$BUILD/app/idres" \
    --work-dir "$OUT/work" "${SUITE_ARGS[@]}" | tee "$OUT/results.txt"
else
  "${PIN[@]}" "$BUILD/bench/suite/idres_bench" --database-url "$URL" --idres "$BUILD/app/idres" \
    --json "$OUT/results.json" --chart "$OUT/throughput.svg" --work-dir "$OUT/work" \
    "${SUITE_ARGS[@]}" | tee "$OUT/results.txt"
fi
status=${PIPESTATUS[0]}
set -e
machine "end"
log "results in $OUT (results.txt, machine.txt; the suite's also results.json, throughput.svg)"
exit "$status"
