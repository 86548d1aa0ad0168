#!/usr/bin/env bash
# The README's run command, `scripts/run.sh` (README.md, "Set-up"), as a
# user runs it, on a state directory and ports of its own:
# 1. the first run creates the embedded cluster and the database `idres`,
#    migrates the store and serves: /healthz answers, an Upsert creates a
#    person, the console's page is served; the service allocates with
#    jemalloc when the build links it;
# 2. Ctrl-C (SIGINT to the script's process group, as a terminal sends it)
#    ends the service gracefully and the script stops the cluster; it exits
#    0, no PostgreSQL runs on the data directory, and the data stays;
# 3. the second run reuses the cluster: the person is still there, found by
#    its e-mail; Ctrl-C again.
# The script is given no database, so it must start its own cluster.
#
# Run by ctest (tests/setup/CMakeLists.txt) with IDRES_SOURCE_DIR,
# IDRES_BUILD_DIR (the Release build run.sh would make; it is up to date,
# so run.sh's build step builds nothing) and IDRES_JEMALLOC (1: the build
# links jemalloc).
set -euo pipefail
source "$IDRES_SOURCE_DIR/scripts/lib/common.sh"
unset IDRES_DATABASE_URL

STATE="$(mktemp -d /tmp/idres-run-test.XXXXXX)"
chmod 755 "$STATE"
# Ports below Linux's ephemeral range (32768-60999): a port in it can be
# taken between free_port and the bind by any outgoing connection of a test
# running beside this one, as a CI run showed ("Address already in use").
export IDRES_STATE_DIR="$STATE/state" IDRES_PG_PORT="$(free_port $((16000 + RANDOM % 1000)))"
HTTP="$(free_port $((17000 + RANDOM % 1000)))"
S="http://127.0.0.1:$HTTP"
RUN_PID=""

fail() {
  echo "FAIL: $*" >&2
  for f in "$STATE"/run*.log; do [ -f "$f" ] && { echo "--- $f" >&2; tail -n 30 "$f" >&2; }; done
  exit 1
}
cleanup() {
  [ -n "$RUN_PID" ] && kill -KILL -- "-$RUN_PID" 2>/dev/null || true
  [ -d "$IDRES_STATE_DIR/pg/data" ] && pg_stop "$IDRES_STATE_DIR/pg/data" immediate
  rm -rf "$STATE"
}
trap cleanup EXIT

# start N: scripts/run.sh in a session of its own (its pid is the process
# group's id), until /healthz answers 200.
start() {
  setsid bash "$IDRES_SOURCE_DIR/scripts/run.sh" --listen "127.0.0.1:$HTTP" \
    >"$STATE/run$1.log" 2>&1 &
  RUN_PID=$!
  for _ in $(seq 600); do
    kill -0 "$RUN_PID" 2>/dev/null || fail "run $1 ended before it served"
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$S/healthz")" = 200 ] && return 0
    sleep 0.5
  done
  fail "run $1 did not serve /healthz"
}

# ctrl_c N: SIGINT to the group, as a terminal's Ctrl-C; the script must end
# with 0 and leave no PostgreSQL running on its data.
ctrl_c() {
  kill -INT -- "-$RUN_PID"
  local status=0
  wait "$RUN_PID" || status=$?
  RUN_PID=""
  [ "$status" -eq 0 ] || fail "run $1 exited $status after Ctrl-C"
  ! pg_running "$IDRES_STATE_DIR/pg/data" || fail "run $1 left its cluster running"
  [ -f "$IDRES_STATE_DIR/pg/data/PG_VERSION" ] || fail "run $1 lost the cluster's data"
}

call() {
  curl -s -w '\n%{http_code}' "$S/idres.v1.IdentityService/$1" \
    -H 'Content-Type: application/json' -d "$2"
}

start 1
grep -q "creating the embedded cluster" "$STATE/run1.log" || fail "run 1 created no cluster"
# The service the README starts allocates with jemalloc (cmake/Dependencies.cmake),
# unless this build was made without it (-DIDRES_JEMALLOC=OFF: IDRES_JEMALLOC=0).
if [ "${IDRES_JEMALLOC:-1}" = 1 ] && ! grep -q "allocator: jemalloc " "$STATE/run1.log"; then
  fail "run 1 does not allocate with jemalloc: $(grep 'allocator:' "$STATE/run1.log")"
fi
out="$(call Upsert '{"record":{"identifiers":[{"type":"email","value":"Anna@Example.com"}]}}')"
[ "$(tail -n 1 <<<"$out")" = 200 ] || fail "Upsert: $out"
grep -q '"outcome":"OUTCOME_CREATED"' <<<"$out" || fail "Upsert created nobody: $out"
person="$(sed -n 's/.*"personId":"\([0-9]*\)".*/\1/p' <<<"$out" | head -n 1)"
[ -n "$person" ] || fail "no personId in $out"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$S/console/")" = 200 ] || fail "no console page"
ctrl_c 1

start 2
if grep -q "creating the embedded cluster" "$STATE/run2.log"; then
  fail "run 2 created the cluster again"
fi
out="$(call Lookup '{"identifier":{"type":"email","value":"anna@example.com"}}')"
[ "$(tail -n 1 <<<"$out")" = 200 ] || fail "Lookup after the restart: $out"
grep -q "\"$person\"" <<<"$out" || fail "person $person is gone after the restart: $out"
ctrl_c 2
echo "run script: created, stopped, found again"
