#!/usr/bin/env bash
# The change feed across crashes of PostgreSQL (docs/batch.md, "The change feed":
# "a consumer that stores the last position it processed sees
# every change exactly once, also across restarts of `idres serve` and of
# PostgreSQL").
#
# On a throwaway cluster of its own (the suite's shared cluster must not be
# restarted), whose default is synchronous_commit=off, with two `idres serve`
# in front of it, one for the writers and one for consumer C:
# - writers change persons without pause: four loops of curl calls to their
#   service (Upsert with record ids, so a retry is the same write; replaces,
#   DeleteRecord, ForgetPerson; shared values, so they merge each other's
#   persons) and one loop of `idres import` runs straight on the database;
#   a call that fails while the database is down is tried again;
# - three consumers store the last position they processed (the last line
#   of their output file) and go on after it: A `idres changes --follow` on
#   the database under a supervisor, killed with SIGKILL during one outage
#   and started again after its last line while the database is still down
#   (such a start waits for the database: the test fails if it ends); B a
#   loop of `idres changes --after LAST --limit 100`, a new process each
#   time, on the database; C `idres changes --follow --server`, through its service;
# - PostgreSQL crashes three times (`pg_ctl stop -m immediate`, `start`;
#   the second time with a second down), each time once the feed has grown
#   by a given number of changes since the last one; in between, before any
#   client can connect again, no position a consumer stored may be past the
#   last one the store kept.
# The writers' connections set synchronous_commit=on, the consumers' keep
# the server's off: a position read must survive the crash all the same
# (the sequencer commits its round durably whatever the setting).
# Crash recovery makes the sequences jump (the change rows' `seq`, person
# ids); positions must not. At the end, for each consumer: positions 1..N,
# each once (docs/batch.md promises dense positions), its lines the same as a
# fresh `idres changes --after 0` after the writers stopped; the persons the
# feed leaves alive (created, minus merged and erased) are exactly the rows
# of `persons`; and every change a writer was told about (a created, merged,
# split-off or erased person in an answer) is in the feed.
#
# Run by ctest (tests/batch/CMakeLists.txt) with IDRES_BINARY and
# IDRES_SOURCE_DIR; by hand:
#   IDRES_BINARY=build/app/idres IDRES_SOURCE_DIR=. bash tests/batch/feed_pg_restart_test.sh
# IDRES_KEEP_TEST_DIR=1 keeps the work directory (logs, outputs) at the end.
set -euo pipefail

: "${IDRES_BINARY:?set IDRES_BINARY to the idres binary}"
: "${IDRES_SOURCE_DIR:?set IDRES_SOURCE_DIR to the source tree}"
# shellcheck source=SCRIPTDIR/../../scripts/lib/common.sh
source "$IDRES_SOURCE_DIR/scripts/lib/common.sh"
IDRES="$IDRES_BINARY"
PSQL="$PG_BIN/psql"
[ -x "$PSQL" ] || PSQL="$(command -v psql)"

WRITERS=4        # curl writers (and one import writer besides)
RESTARTS=3
STEP=300         # changes between two crashes, and after the last one
SHARED=40        # shared email values the writers bridge persons with

say() { echo "[feed_pg_restart] $*" >&2; }

RUN_DIR="$(mktemp -d /tmp/idres-feed-restart.XXXXXX)"
chmod 755 "$RUN_DIR"
give_to_pg "$RUN_DIR"
STOP="$RUN_DIR/stop-writers"
STOP_A="$RUN_DIR/stop-consumer-a"
STOP_B="$RUN_DIR/stop-consumer-b"
WRITER_PIDS=()
SERVE_PID=""
C_SERVE_PID=""
A_PID=""
B_PID=""
C_PID=""
FAILED=1

cleanup() {
  local status=$?
  set +e
  touch "$STOP" "$STOP_A" "$STOP_B" 2>/dev/null || true
  if [ -s "$RUN_DIR/a.pid" ]; then kill "$(cat "$RUN_DIR/a.pid")" 2>/dev/null; fi
  for p in "${WRITER_PIDS[@]}" "$B_PID" "$A_PID" "$C_PID" "$SERVE_PID" "$C_SERVE_PID"; do
    if [ -n "$p" ]; then kill "$p" 2>/dev/null || true; fi
  done
  wait 2>/dev/null || true
  pg_stop "$RUN_DIR/data" immediate
  if [ "$FAILED" = 1 ]; then
    say "FAILED (status $status); the last lines of the logs:"
    for f in "$RUN_DIR"/*.err "$RUN_DIR"/serve*.log "$RUN_DIR"/postgres.log; do
      [ -s "$f" ] || continue
      echo "--- $f" >&2
      tail -n 15 "$f" >&2
    done
  fi
  if [ "${IDRES_KEEP_TEST_DIR:-0}" = 1 ]; then say "kept $RUN_DIR"; else rm -rf "$RUN_DIR"; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

fail() {
  say "FAIL: $*"
  exit 1
}

# --- the cluster and the service -------------------------------------------
# Ports below the kernel's ephemeral range (32768 and up), where no client
# connection of a concurrent test sits; and one another test took between
# free_port and the start: try another.
# synchronous_commit=off is the server's default, so that consumers A, B
# and C (whose connections keep it) rely on the engine's own setting for the
# sequencer's round: with the round's COMMIT answering before it is on disk,
# a consumer could read and store a position the store forgets in the crash
# (and then hands out again; the check after each crash below).
# The writers' connections set it on (libpq's options parameter, "-c
# synchronous_commit=on"), so that a change a writer was told about survives
# the crash and the check that the feed has it holds. (A writer's COMMIT
# flushes the WAL up to its own record, and so also a round that committed
# before it: the writers narrow the window in which a round is only in
# memory, but do not close it.)
# fsync=off is safe here: only the postmaster crashes, never the kernel,
# whose page cache keeps what was written.
PG_OPTS=(-c max_connections=100 -c fsync=off -c synchronous_commit=off)
pg_init "$RUN_DIR/data"
PG_PORT=""
for _ in 1 2 3; do
  port="$(free_port $((24000 + RANDOM % 4000)))"
  if pg_start "$RUN_DIR/data" "$port" "$RUN_DIR" "$RUN_DIR/postgres.log" "${PG_OPTS[@]}"; then
    PG_PORT="$port"
    break
  fi
  say "the cluster did not start on port $port: $(tail -n 2 "$RUN_DIR/postgres.log" 2>/dev/null)"
done
[ -n "$PG_PORT" ] || fail "the cluster did not start"
URL="postgresql://postgres@127.0.0.1:$PG_PORT/idres"          # consumers
WRITER_URL="$URL?options=-c%20synchronous_commit%3Don"          # writers
psql_q() { "$PSQL" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres "$@"; }
psql_q -d postgres -c "CREATE DATABASE idres"
sync_off="$("$PSQL" -X -At -d "$URL" -c "SHOW synchronous_commit")"
sync_on="$("$PSQL" -X -At -d "$WRITER_URL" -c "SHOW synchronous_commit")"
[ "$sync_off $sync_on" = "off on" ] ||
  fail "synchronous_commit is $sync_off for the consumers' URL, $sync_on for the writers'; want off, on"

# start_serve URL LOG: an `idres serve` on URL; sets SERVED_PID and SERVED.
start_serve() {
  local url="$1" log="$2" port
  SERVED=""
  for _ in 1 2 3; do
    port="$(free_port $((28000 + RANDOM % 4000)))"
    "$IDRES" --log-level warn serve --listen "127.0.0.1:$port" --database-url "$url" \
      --pool-size 8 >>"$log" 2>&1 &
    SERVED_PID=$!
    for _ in $(seq 100); do
      curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && { SERVED="http://127.0.0.1:$port"; break; }
      kill -0 "$SERVED_PID" 2>/dev/null || break
      sleep 0.1
    done
    [ -n "$SERVED" ] && return 0
    kill "$SERVED_PID" 2>/dev/null || true
    wait "$SERVED_PID" 2>/dev/null || true
    SERVED_PID=""
  done
  return 1
}
start_serve "$WRITER_URL" "$RUN_DIR/serve.log" || fail "idres serve (the writers') did not start"
SERVE_PID="$SERVED_PID"
HTTP="$SERVED"
RPC="$HTTP/idres.v1.IdentityService"
start_serve "$URL" "$RUN_DIR/serve-c.log" || fail "idres serve (consumer C's) did not start"
C_SERVE_PID="$SERVED_PID"
C_HTTP="$SERVED"
say "cluster on 127.0.0.1:$PG_PORT, idres serve on $HTTP (writers), $C_HTTP (consumer C) ($RUN_DIR)"

# --- consumers ---------------------------------------------------------------
# A consumer's stored position: the last whole line of its output.
# stored_position, only while nothing writes the file: a line cut short (by
# the SIGKILL) was not processed, and goes. peek_position only reads.
stored_position() {
  local f="$1"
  if [ -s "$f" ] && [ "$(tail -c 1 "$f" | wc -l)" -eq 0 ]; then sed -i '$d' "$f"; fi
  peek_position "$f"
}
peek_position() {
  local f="$1" line
  if [ ! -s "$f" ]; then echo 0; return; fi
  if [ "$(tail -c 1 "$f" | wc -l)" -eq 1 ]; then line="$(tail -n 1 "$f")"; else line="$(tail -n 2 "$f" | head -n 1)" || true; fi
  if [[ "$line" =~ ^\{\"position\":([0-9]+), ]]; then echo "${BASH_REMATCH[1]}"; else echo 0; fi
}

# Consumer A runs under a supervisor, as a service would (systemd's
# Restart=on-failure): a follower that ends with a failure is started again
# after its stored position. Each such end is counted (a.exits). The only
# one allowed is the SIGKILL of crash 2: `idres changes --follow` started
# while the database is down waits for it (its engine opens at the first
# poll, and a failed opening is retried as a failed poll).
consumer_a() {
  local after status
  while [ ! -e "$STOP_A" ]; do
    after="$(stored_position "$RUN_DIR/a.out")"
    "$IDRES" changes --follow --poll-ms 50 --after "$after" --database-url "$URL" \
      >>"$RUN_DIR/a.out" 2>>"$RUN_DIR/a.err" &
    echo $! >"$RUN_DIR/a.pid"
    status=0
    wait $! 2>/dev/null || status=$?
    [ "$status" -eq 0 ] && return 0
    echo "$status after $after" >>"$RUN_DIR/a.exits"
    sleep 0.1
  done
}

consumer_b() {
  local last calls=0
  while :; do
    last="$(stored_position "$RUN_DIR/b.out")"
    if [ -e "$STOP_B" ] && [ "$last" -ge "$(cat "$STOP_B")" ]; then break; fi
    calls=$((calls + 1))
    if ! "$IDRES" changes --after "$last" --limit 100 --database-url "$URL" \
        >>"$RUN_DIR/b.out" 2>>"$RUN_DIR/b.err"; then
      echo failed >>"$RUN_DIR/b.failures"
      sleep 0.05
    elif [ "$(peek_position "$RUN_DIR/b.out")" = "$last" ]; then
      sleep 0.05
    fi
  done
  echo "$calls" >"$RUN_DIR/b.calls"
}

touch "$RUN_DIR/a.out" "$RUN_DIR/b.out" "$RUN_DIR/c.out"
consumer_a &
A_PID=$!
consumer_b &
B_PID=$!
"$IDRES" changes --follow --poll-ms 50 --server "$C_HTTP" \
  >>"$RUN_DIR/c.out" 2>>"$RUN_DIR/c.err" &
C_PID=$!

# --- writers ------------------------------------------------------------------
# call W METHOD BODY [404-is-done]: POSTs until an answer that is not a
# passing failure; the answer is in $RUN_DIR/w$W.body. A write that failed
# while the database was down may or may not have committed: the same call
# again is the same write (record ids), or answers 404 for a delete or an
# erasure that did commit.
call() {
  local w="$1" method="$2" body="$3" done404="${4:-}" code tries=0
  while :; do
    code="$(curl -s -o "$RUN_DIR/w$w.body" -w '%{http_code}' --max-time 30 \
      -H 'Content-Type: application/json' -d "$body" "$RPC/$method")" || code=000
    case "$code" in
      200) return 0 ;;
      404) if [ -n "$done404" ]; then return 0; fi ;;
      000 | 409 | 429 | 5??)
        tries=$((tries + 1))
        echo "$method $code" >>"$RUN_DIR/w$w.retries"
        [ "$tries" -lt 600 ] || { say "writer $w: $method kept failing ($code)"; return 1; }
        sleep 0.05
        continue ;;
    esac
    say "writer $w: $method $body answered $code: $(cat "$RUN_DIR/w$w.body")"
    return 1
  done
}

# What an answer says changed, for the check that the feed has it.
note_answer() {
  local w="$1" body id
  body="$(cat "$RUN_DIR/w$w.body")"
  id="$(sed -n 's/^{"personId":"\([0-9]*\)".*/\1/p' <<<"$body")"
  case "$body" in
    *'"outcome":"OUTCOME_CREATED"'*) echo "created $id" ;;
    *'"personRemoved":true'*) echo "erased $id" ;;
    *'"erasedIds"'*) echo "erased $id" ;;
  esac
  for key in mergedPersonIds:merged splitPersonIds:created; do
    grep -o "\"${key%%:*}\":\[[^]]*\]" <<<"$body" | grep -o '[0-9][0-9]*' |
      sed "s/^/${key##*:} /" || true
  done
}

email() { echo "{\"type\":\"email\",\"value\":\"$1\"}"; }

writer() {
  local w="$1" k=0 ids person
  while [ ! -e "$STOP" ]; do
    k=$((k + 1))
    ids="$(email "w${w}k$k@feed.example")"
    # Values other records hold: merges within a writer and across writers.
    if [ $((k % 4)) -eq 0 ]; then ids+=",$(email "s$(((k * 7 + w) % SHARED))@shared.example")"; fi
    if [ $((k % 5)) -eq 0 ]; then
      ids+=",$(email "w${w}k$((k - 1))@feed.example"),$(email "w${w}k$((k - 2))@feed.example")"
    fi
    call "$w" Upsert "{\"record\":{\"identifiers\":[$ids],\"traits\":{\"k\":$k},\"source\":\"w$w\",\"recordId\":\"r$k\"}}" || return 1
    person="$(sed -n 's/^{"personId":"\([0-9]*\)".*/\1/p' "$RUN_DIR/w$w.body")"
    note_answer "$w" >>"$RUN_DIR/w$w.acked"
    if [ $((k % 7)) -eq 0 ]; then # replace an earlier record: its person may split
      call "$w" Upsert "{\"record\":{\"identifiers\":[$(email "w${w}k$((k - 3))b@feed.example")],\"traits\":{\"k\":-$k},\"source\":\"w$w\",\"recordId\":\"r$((k - 3))\"}}" || return 1
      note_answer "$w" >>"$RUN_DIR/w$w.acked"
    fi
    if [ $((k % 11)) -eq 0 ]; then # delete one: its person may split or go
      call "$w" DeleteRecord "{\"source\":\"w$w\",\"recordId\":\"r$((k - 5))\"}" 404 || return 1
      note_answer "$w" >>"$RUN_DIR/w$w.acked"
    fi
    if [ $((k % 13)) -eq 0 ] && [ -n "$person" ]; then # erase a person
      call "$w" ForgetPerson "{\"personId\":\"$person\"}" 404 || return 1
      note_answer "$w" >>"$RUN_DIR/w$w.acked"
    fi
  done
  echo "$k" >"$RUN_DIR/w$w.ops"
}

# `idres import` straight on the database, 60 records a round; a run that
# fails goes on with --resume from its checkpoint (the receipts make each
# record count once), or starts again when it wrote none.
importer() {
  local round=0 j tries file args
  while [ ! -e "$STOP" ]; do
    round=$((round + 1))
    file="$RUN_DIR/imp$round.ndjson"
    for j in $(seq 60); do
      ids="$(email "i${round}j$j@imp.example")"
      if [ $((j % 3)) -eq 0 ]; then ids+=",$(email "s$(((round * 11 + j) % SHARED))@shared.example")"; fi
      echo "{\"identifiers\":[$ids],\"traits\":{\"round\":$round},\"recordId\":\"i${round}_$j\",\"source\":\"imp\"}"
    done >"$file"
    tries=0
    while :; do
      args=()
      [ -e "$file.ck" ] && args=(--resume)
      if "$IDRES" import "$file" --database-url "$WRITER_URL" --workers 2 --batch 15 \
          --checkpoint "$file.ck" --dead-letter "$file.dead" --progress off "${args[@]}" \
          >>"$RUN_DIR/imp.out" 2>>"$RUN_DIR/imp.err"; then
        break
      fi
      tries=$((tries + 1))
      echo "import $round" >>"$RUN_DIR/imp.retries"
      [ "$tries" -lt 300 ] || { say "importer: round $round kept failing"; return 1; }
      sleep 0.1
    done
    [ ! -s "$file.dead" ] || { say "importer: dead letters in round $round"; return 1; }
  done
  echo "$round" >"$RUN_DIR/imp.rounds"
}

for w in $(seq "$WRITERS"); do
  writer "$w" &
  WRITER_PIDS+=($!)
done
importer &
WRITER_PIDS+=($!)

fed() { wc -l <"$RUN_DIR/b.out"; }

# Waits until consumer B has seen $1 changes. A bound on a wait for
# progress, never an assertion on how long anything took.
wait_fed() {
  local n="$1" i
  for i in $(seq 1800); do
    [ "$(fed)" -ge "$n" ] && return 0
    for p in "${WRITER_PIDS[@]}"; do
      kill -0 "$p" 2>/dev/null || { wait "$p" || fail "a writer failed"; }
    done
    [ "$i" -lt 1800 ] && sleep 0.1
  done
  fail "the feed did not reach $n changes (it has $(fed))"
}

pg_ctl_as() { as_pg "$PG_BIN/pg_ctl" -D "$RUN_DIR/data" "$@"; }

# --- the crashes -----------------------------------------------------------------
# Each crash: `pg_ctl stop -m immediate`; with the database down, the
# position each consumer has stored; then the cluster comes back on a port
# of its own that no client knows, for a look at the last position handed
# out that the store kept (changes_head): a position a consumer stored must
# not be past it, or the store forgot it and will hand it out again (for the
# same changes, when the rows it numbered survived and are numbered again
# in the same order: the checks at the end cannot tell then); then the
# start for everyone.
stored_max() {
  local c p most=0 who=""
  for c in a b c; do
    p="$(peek_position "$RUN_DIR/$c.out")"
    if [ "$p" -gt "$most" ]; then most="$p"; who="${c^^}"; fi
  done
  echo "$most $who"
}
look_port() {
  local port
  for _ in 1 2 3; do
    port="$(free_port $((22000 + RANDOM % 2000)))"
    if pg_start "$RUN_DIR/data" "$port" "$RUN_DIR" "$RUN_DIR/postgres.log" "${PG_OPTS[@]}"; then
      echo "$port"
      return 0
    fi
  done
  return 1
}
AT_CRASH=()
for r in $(seq "$RESTARTS"); do
  wait_fed $((r * STEP))
  AT_CRASH+=("$(fed)")
  pg_ctl_as -m immediate -w stop >/dev/null
  how="stop -m immediate"
  if [ "$r" -eq 2 ]; then
    # Consumer A dies with the database, and its supervisor starts it again
    # from its stored position while the database is still down.
    kill -KILL "$(cat "$RUN_DIR/a.pid")"
    how+=", consumer A killed (SIGKILL)"
    sleep 1
  fi
  sleep 0.2 # an answer read before the stop may still be on its way out
  read -r stored who <<<"$(stored_max)"
  port="$(look_port)" || fail "crash $r: the cluster did not start on a port of its own"
  kept="$(psql_q -p "$port" -d idres -c "SELECT last_position FROM changes_head")"
  pg_stop "$RUN_DIR/data" fast
  if [ "$stored" -gt "$kept" ]; then
    forgot="$((kept + 1))"
    [ "$stored" -eq "$forgot" ] || forgot+="..$stored"
    fail "crash $r: consumer $who stored position $stored, the store kept positions up to $kept:" \
      "it forgot $forgot"
  fi
  pg_start "$RUN_DIR/data" "$PG_PORT" "$RUN_DIR" "$RUN_DIR/postgres.log" "${PG_OPTS[@]}"
  say "crash $r at ${AT_CRASH[-1]} changes: $how, start; positions stored up to $stored, kept up to $kept"
done
wait_fed $((RESTARTS * STEP + STEP))
touch "$STOP"
for p in "${WRITER_PIDS[@]}"; do wait "$p" || fail "a writer failed"; done
WRITER_PIDS=()

# --- the checks ----------------------------------------------------------------
"$IDRES" changes --after 0 --database-url "$URL" >"$RUN_DIR/all.ndjson" 2>>"$RUN_DIR/all.err" ||
  fail "idres changes --after 0 failed"
N="$(wc -l <"$RUN_DIR/all.ndjson")"
echo "$N" >"$STOP_B"
for i in $(seq 600); do
  [ "$(peek_position "$RUN_DIR/a.out")" -ge "$N" ] &&
    [ "$(peek_position "$RUN_DIR/c.out")" -ge "$N" ] &&
    ! kill -0 "$B_PID" 2>/dev/null && break
  [ "$i" -lt 600 ] && sleep 0.1
done
touch "$STOP_A"
kill -TERM "$(cat "$RUN_DIR/a.pid")" 2>/dev/null || true
wait "$A_PID" || fail "consumer A ended with status $?"
A_PID=""
kill -TERM "$C_PID" 2>/dev/null || true
wait "$C_PID" || fail "consumer C ended with status $?"
C_PID=""
wait "$B_PID" || fail "consumer B failed"
B_PID=""

# Consumer A logged no error, and ended only when it was killed.
others="$(grep '\[error\]' "$RUN_DIR/a.err" | head -n 3)" || true
[ -z "$others" ] || fail "consumer A failed: $others"
ended="$(grep -vc '^137 ' "$RUN_DIR/a.exits" 2>/dev/null)" || true
[ "${ended:-0}" -eq 0 ] ||
  fail "consumer A ended $ended time(s) on its own: a follower started while the database is down must wait for it"

# Positions 1..N, each once, in order (docs/batch.md: "positions are dense"):
# first in a fresh read of the whole feed, then in what each consumer saw;
# and each consumer saw the same changes as the fresh read.
check_positions() {
  local who="$1" f="$2" dups
  sed -E 's/^\{"position":([0-9]+),.*/\1/' "$f" >"$f.positions"
  seq 1 "$N" | diff -q - "$f.positions" >/dev/null && return 0
  say "$who: positions differ from 1..$N (< expected, > seen):"
  seq 1 "$N" | diff - "$f.positions" | head -n 20 >&2 || true
  dups="$(sort -n "$f.positions" | uniq -d | head -n 10 | tr '\n' ' ')" || true
  [ -z "$dups" ] || say "$who: positions seen more than once: $dups"
  fail "$who: not positions 1..$N, each once"
}
check_positions "the feed (idres changes --after 0)" "$RUN_DIR/all.ndjson"
for c in a b c; do
  f="$RUN_DIR/$c.out"
  check_positions "consumer ${c^^}" "$f"
  if ! cmp -s "$f" "$RUN_DIR/all.ndjson"; then
    diff "$RUN_DIR/all.ndjson" "$f" | head -n 20 >&2 || true
    fail "consumer ${c^^} saw other changes than idres changes --after 0 lists"
  fi
done

read -r rows numbered lo hi <<<"$(psql_q -d idres -F ' ' -c \
  "SELECT count(*), count(position), min(position), max(position) FROM changes")"
[ "$rows $numbered $lo $hi" = "$N $N 1 $N" ] ||
  fail "the changes table has $rows rows, $numbered numbered, positions $lo..$hi; the feed $N"

# The persons the feed leaves alive, checking each person's story on the way:
# created once and first, nothing after merged or erased, merged into a live
# person.
awk -v out="$RUN_DIR/derived" '
  function field(name,   m) {
    if (!match($0, "\"" name "\":[0-9]+")) return ""
    m = substr($0, RSTART, RLENGTH); sub(/.*:/, "", m); return m
  }
  function bad(why) { print "position " field("position") ": " why ": " $0 > "/dev/stderr"; err = 1 }
  {
    p = field("personId"); o = field("otherId")
    if ($0 ~ /"kind":"created"/) {
      if (p in seen) bad("person created twice"); seen[p] = 1; live[p] = 1
    } else if (!(p in live)) {
      bad("a change to a person not alive")
    } else if ($0 ~ /"kind":"merged"/) {
      if (!(o in live) || o == p) bad("merged into a person not alive"); delete live[p]
    } else if ($0 ~ /"kind":"erased"/) {
      delete live[p]
    }
  }
  END { for (p in live) print p > out; exit err }' "$RUN_DIR/all.ndjson" ||
  fail "the feed tells an impossible story (above)"
touch "$RUN_DIR/derived"
sort -n "$RUN_DIR/derived" >"$RUN_DIR/derived.sorted"
psql_q -d idres -c "SELECT id FROM persons ORDER BY id" >"$RUN_DIR/persons"
if ! diff -q "$RUN_DIR/derived.sorted" "$RUN_DIR/persons" >/dev/null; then
  diff "$RUN_DIR/derived.sorted" "$RUN_DIR/persons" | head -n 20 >&2 || true
  fail "the persons the feed leaves alive (<) are not the persons in the store (>)"
fi

# Every change an answer told a writer of is in the feed.
sed -E 's/^\{"position":[0-9]+,"personId":([0-9]+),"kind":"([a-z]+)".*/\2 \1/' \
  "$RUN_DIR/all.ndjson" | sort -u >"$RUN_DIR/feed.kinds"
cat "$RUN_DIR"/w*.acked | sort -u >"$RUN_DIR/acked"
missing="$(comm -23 "$RUN_DIR/acked" "$RUN_DIR/feed.kinds" | head -n 10 | tr '\n' ',')" || true
[ -z "$missing" ] || fail "answered changes missing from the feed: $missing"

# --- what happened -----------------------------------------------------------------
count() { cat "$@" 2>/dev/null | wc -l; }
kinds="$(sed -E 's/.*"kind":"([a-z]+)".*/\1/' "$RUN_DIR/all.ndjson" | sort | uniq -c |
  awk '{printf "%s %s, ", $1, $2}')"
read -r seq_max seq_rows <<<"$(psql_q -d idres -F ' ' -c "SELECT max(seq), count(*) FROM changes")"
persons="$(wc -l <"$RUN_DIR/persons")"
ops=0
for w in $(seq "$WRITERS"); do ops=$((ops + $(cat "$RUN_DIR/w$w.ops"))); done
say "crashes at ${AT_CRASH[*]} changes; $N changes (${kinds%, }); $persons persons alive"
say "writers: $ops records upserted by curl in $(count "$RUN_DIR"/w*.retries) retried calls," \
  "$(cat "$RUN_DIR/imp.rounds") import rounds in $(count "$RUN_DIR/imp.retries") retried runs"
say "consumers: A's follower was killed $(grep -c '^137 ' "$RUN_DIR/a.exits" || true) time(s)" \
  "and started again while the database was down;" \
  "A and C rode out $(grep -c 'asking again' "$RUN_DIR/a.err" || true) and" \
  "$(grep -c 'asking again' "$RUN_DIR/c.err" || true) failed polls; B made $(cat "$RUN_DIR/b.calls")" \
  "calls, $(count "$RUN_DIR/b.failures") failed"
say "seq: $seq_rows rows, values up to $seq_max ($((seq_max - seq_rows)) skipped: rollbacks, crash recovery)"
say "PASS: each consumer saw positions 1..$N once each, the same as a fresh read; the feed's" \
  "persons are the store's"
FAILED=0
