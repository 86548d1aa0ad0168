// PgConn: one libpq connection, and the one way the engine sends statements
// on it. Every message is a pipeline (libpq's pipeline mode): the calls it
// carries go out together, each a parameterized statement of the extended
// protocol — the named prepared statement when the connection prepared the
// engine's statements at open, else the unnamed statement of its SQL text
// (PgBouncer in transaction mode keeps no named ones) — followed by one
// Sync, so a message costs one round trip however many statements it
// carries. Parameters always travel apart from the SQL, as text values;
// nothing is spliced into a statement. Under READ COMMITTED each statement
// still takes its own snapshot when it starts, and an error stops the
// pipeline where it happened: the later statements do not run.
//
// Thread-safety: one thread at a time. Internal to engine/.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "engine/detail/pg_rows.h"

struct pg_conn;

namespace idres::detail {

// One statement of a message: `name` (prepared; may be null for statements
// that are never prepared, such as BEGIN) or `sql` with `params` as $1...
struct Call {
  const char* name;
  const char* sql;
  std::vector<std::string> params;
};

class PgConn {
 public:
  // Connects to `conninfo` (a libpq URL or key=value string), giving up
  // after `connect_timeout` seconds (0: no bound) unless `conninfo` names its
  // own connect_timeout; with `prepare`, runs the session settings and
  // prepares every statement of engine/detail/statements.h. Throws
  // DatabaseError (lost) when it cannot.
  PgConn(const std::string& conninfo, bool prepare, long long connect_timeout = 0);
  ~PgConn();
  PgConn(const PgConn&) = delete;
  PgConn& operator=(const PgConn&) = delete;

  // Runs `script`, several statements without parameters, as one simple
  // query (the schema at start-up); its results are dropped. Throws
  // DatabaseError as Run.
  void Script(const std::string& script);

  // Sends `calls` as one message and returns the rows of each, in order.
  // Throws DatabaseError: the first statement that failed (those after it
  // did not run), or the connection lost.
  std::vector<Rows> Run(std::span<const Call> calls);

  // Whether an idle connection is still open: what stays readable on an
  // idle connection, once notices are taken in, is the end of the stream (a
  // restart, pg_terminate_backend, an idle timeout).
  bool StillUp();
  // Whether libpq considers the connection usable.
  bool ok() const;
  int socket() const;

 private:
  // Reads every result up to the message's Sync and leaves pipeline mode;
  // the rows of each call (empty for one that failed or did not run), or the
  // first failure thrown.
  std::vector<Rows> Collect();
  [[noreturn]] void ThrowLost(const char* what) const;

  pg_conn* conn_;
  const bool prepared_;
};

}  // namespace idres::detail
