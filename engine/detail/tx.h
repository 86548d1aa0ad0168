// Tx: one database transaction on a borrowed connection, RAII.
//
// Every transaction opens with BEGIN ISOLATION LEVEL READ COMMITTED, its
// lock_timeout (and statement_timeout, for a caller's deadline) set for the
// transaction alone and, when given keys, the step-3 key locks
// (engine/detail/begin_sql.h): the engine's correctness rests on each
// statement taking a fresh snapshot after the lock wait, whatever the
// database's default isolation is. The destructor rolls back unless the
// transaction committed, which also releases every pg_advisory_xact_lock
// taken inside.
//
// One way to send statements (engine/detail/pg_conn.h): statements are
// queued, and a queue goes out as one pipelined message — one round trip —
// when the caller needs an answer:
//   - the opening statements go with the first Exec(), so the upsert's key
//     locks and its candidate read are one round trip (each statement still
//     takes its own snapshot, after the locks are granted);
//   - Defer()red statements go with the next Exec() or the COMMIT;
//   - ExecAndCommit() sends its statement and COMMIT in one round trip and
//     returns the statement's rows.
// The same with prepared statements on or off (PgBouncer in transaction
// mode); parameters always travel apart from the SQL.
//
// Deadline: once the caller's deadline (Timeouts::deadline) has passed, no
// further message is sent; the call that would send it throws DeadlineError
// and the transaction rolls back. A statement already sent is bounded by
// the statement_timeout the deadline set when the transaction began; should
// the server not answer at all, the pool's watchdog cuts the connection
// once that timeout and kCutGrace have passed since the message was sent,
// and the waiting call throws DeadlineError (saying the outcome is unknown
// if its message carried the COMMIT).
//
// An error in any statement of a message aborts the transaction there: the
// later statements never run, and the error (DatabaseError) is thrown by the
// call that sent the message.
//
// Thread-safety: a Tx belongs to one thread. Internal to engine/.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/detail/begin_sql.h"
#include "engine/detail/pg_conn.h"
#include "engine/detail/pool.h"
#include "engine/detail/statements.h"
#include "engine/detail/watchdog.h"

namespace idres::detail {

// How long past its statement_timeout a message that the server has not
// answered may wait before its connection is cut: a server that still runs
// answers by then, with its rows or with the timeout's error (of the one
// statement of a message that can wait long: a lock).
inline constexpr std::chrono::milliseconds kCutGrace{500};

class Tx {
 public:
  // Opens the transaction; `lock_keys` (sorted and unique; may be empty)
  // are locked before any statement of the caller runs. `on_begun` is called
  // once the database has answered the opening statements (which travel
  // with the first Exec()). Errors of the opening statements (e.g. 55P03
  // when a key waits past the lock timeout) are thrown by whichever call
  // sent them; the transaction then rolls back.
  Tx(Pool::Lease& lease, const Timeouts& timeouts, std::span<const std::int64_t> lock_keys = {},
     std::function<void()> on_begun = {});
  ~Tx();
  Tx(const Tx&) = delete;
  Tx& operator=(const Tx&) = delete;

  // Runs `s` with `args` as $1, $2, ... (after whatever is pending) and
  // returns its rows.
  template <typename... Args>
  Rows Exec(const Statement& s, Args&&... args) {
    Queue(s, Params(std::forward<Args>(args)...));
    return Send(false);
  }

  // Exec with the text parameters `params`, however many.
  Rows ExecWith(const Statement& s, std::vector<std::string> params) {
    Queue(s, std::move(params));
    return Send(false);
  }

  // Queues `s`, whose rows nobody reads, for the next message.
  template <typename... Args>
  void Defer(const Statement& s, Args&&... args) {
    Queue(s, Params(std::forward<Args>(args)...));
  }

  // Runs `s` and commits, in one message; returns the rows of `s`.
  template <typename... Args>
  Rows ExecAndCommit(const Statement& s, Args&&... args) {
    Queue(s, Params(std::forward<Args>(args)...));
    return Send(true);
  }

  // Sends whatever is pending, then runs `script` (several statements
  // without parameters: a migration step) as one simple query; its rows
  // are dropped. Not watched against a deadline: only start-up runs
  // scripts, and it has none.
  void Script(const std::string& script);

  // Commits (with whatever is pending), unless already committed.
  void Commit();

 private:
  // Text parameters; a temporary (an array literal of a whole batch) is
  // moved, not copied.
  static std::string Param(std::string v) { return v; }
  static std::string Param(std::int64_t v) { return std::to_string(v); }
  template <typename... Args>
  static std::vector<std::string> Params(Args&&... args) {
    std::vector<std::string> out;
    out.reserve(sizeof...(args));
    (out.push_back(Param(std::forward<Args>(args))), ...);
    return out;
  }
  void Queue(const Statement& s, std::vector<std::string> params);
  // Sends the pending statements (and COMMIT if `commit`) as one message;
  // the rows of the last pending statement.
  Rows Send(bool commit);
  // The opening statements were answered: tell the caller, once.
  void Begun();
  // Throws DeadlineError once the deadline passed.
  void CheckDeadline() const;
  // Runs `calls`, one round trip, under the watchdog when there is a
  // deadline; when the watchdog cut the connection meanwhile, throws
  // DeadlineError instead of the broken connection. An answer that came as
  // the cut did still counts if it was the COMMIT's.
  std::vector<Rows> Guarded(bool commits, std::span<const Call> calls);
  // Ends the watch of the message in flight; true if it cut the connection.
  bool Unwatch();
  [[noreturn]] void ThrowCut(bool commits);
  void Rollback() noexcept;

  Pool::Lease& lease_;
  const Deadline deadline_;
  std::function<void()> on_begun_;
  // With a deadline: the statement_timeout it set, and the watch of the
  // message in flight.
  std::optional<std::chrono::milliseconds> cut_after_;
  std::unique_ptr<Watchdog::Watch> watch_;
  std::vector<Call> pending_;  // statements not yet sent, in order
  bool sent_ = false;          // the database has seen this transaction
  bool begun_ = false;         // on_begun_ was called
  bool done_ = false;          // committed or rolled back
  bool cut_ = false;           // the watchdog cut the connection
};

}  // namespace idres::detail
