# Shared by scripts/run.sh and scripts/test.sh: build, PostgreSQL cluster and
# PgBouncer helpers. Source it; it defines functions and changes nothing.

IDRES_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"

log() { echo "[idres] $*" >&2; }

# Runs a command as the cluster owner: initdb, pg_ctl and pgbouncer refuse
# root, so as root they run as the postgres user.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Gives a directory to the cluster owner.
give_to_pg() {
  if [ "$(id -u)" -eq 0 ]; then chown -R postgres:postgres "$@"; fi
}

# Configures and builds every target into $1 (Release unless $2 names another
# type); further arguments go to cmake's configure step.
build_idres() {
  local dir="$1" type="${2:-Release}"; shift 2 || true
  cmake -S "$IDRES_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" "$@" >/dev/null
  cmake --build "$dir" -j "$(nproc)" ${IDRES_BUILD_TARGET:+--target "$IDRES_BUILD_TARGET"}
}

# A TCP port on 127.0.0.1 nobody listens on, from $1 upwards.
free_port() {
  local p="$1"
  while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
  echo "$p"
}

# pg_init DATADIR: initdb with trust auth for the local cluster owner.
pg_init() {
  as_pg "$PG_BIN/initdb" -D "$1" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null
}

# pg_start DATADIR PORT SOCKETDIR LOGFILE [extra -c settings...]
# When the cluster does not start, says why (the log's last lines): the
# callers' clean-up removes the log with the throwaway cluster.
pg_start() {
  local data="$1" port="$2" sock="$3" logfile="$4"; shift 4
  local opts="-p $port -k $sock -c listen_addresses=127.0.0.1 $*"
  if ! as_pg "$PG_BIN/pg_ctl" -D "$data" -o "$opts" -l "$logfile" -w -t 60 start >/dev/null; then
    echo "PostgreSQL did not start on port $port; the end of $logfile:" >&2
    tail -n 20 "$logfile" >&2 || true
    return 1
  fi
}

pg_stop() {
  as_pg "$PG_BIN/pg_ctl" -D "$1" -m "${2:-fast}" -w stop >/dev/null 2>&1 || true
}

pg_running() { as_pg "$PG_BIN/pg_ctl" -D "$1" status >/dev/null 2>&1; }

# pgbouncer_start DIR LISTEN_PORT PG_PORT: transaction pooling in front of
# every database of the cluster (auth_type any: local tests only).
pgbouncer_start() {
  local dir="$1" port="$2" pg_port="$3"
  cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$pg_port user=postgres
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = any
pool_mode = transaction
max_client_conn = 400
default_pool_size = 40
max_db_connections = 60
ignore_startup_parameters = extra_float_digits,options
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
  give_to_pg "$dir/pgbouncer.ini"
  as_pg pgbouncer -d -q "$dir/pgbouncer.ini"
}

pgbouncer_stop() {
  [ -f "$1/pgbouncer.pid" ] && kill "$(cat "$1/pgbouncer.pid")" 2>/dev/null || true
}
