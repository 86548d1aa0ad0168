// Tx: one database transaction on a borrowed connection, RAII.
//
// Every transaction opens with BEGIN ISOLATION LEVEL READ COMMITTED, SET
// LOCAL lock_timeout (and statement_timeout, for a caller's deadline) and, when given keys, the
// step-3 key locks (engine/detail/begin_sql.h): the engine's correctness rests on each statement
// taking a fresh snapshot after the lock wait, whatever the database's default isolation is. The
// destructor rolls back unless the transaction committed, which also releases every
// pg_advisory_xact_lock taken inside.
//
// Round trips. With prepared statements on, statements the database has not
// yet seen travel together, as one simple query of EXECUTEs whose arguments
// are quoted literals (never spliced text):
//   - the opening statements go out with the first Exec(), so the upsert's
//     key locks and its candidate read are one round trip (each statement
//     still takes its own snapshot, after the locks are granted);
//   - Defer()red writes go out with the next Exec() or with the COMMIT;
//   - ExecAndCommit() sends its statement and COMMIT in one round trip and
//     still returns the statement's rows.
// Deadline: once the caller's deadline (Timeouts::deadline) has passed, no
// further message is sent; the call that would send it throws DeadlineError
// and the transaction rolls back. A statement already sent is bounded by
// the statement_timeout the deadline set when the transaction began; should
// the server not answer at all, the pool's watchdog cuts the connection
// once that timeout and kCutGrace have passed since the message was sent,
// and the waiting call throws DeadlineError (saying the outcome is unknown
// if its message carried the COMMIT).
//
// An error in any statement of such a message aborts the transaction there:
// the later statements never run, and the error is thrown by the call that
// sent the message. With prepared statements off (PgBouncer in transaction
// mode) every call is its own round trip, as parameterized statements.
//
// Thread-safety: a Tx belongs to one thread. Internal to engine/.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <pqxx/pqxx>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/detail/begin_sql.h"
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
  // once the database has answered the opening statements (with prepared
  // statements on, that answer comes with the first Exec()'s). Errors of the
  // opening statements (e.g. 55P03 when a key waits past the lock timeout)
  // are thrown by whichever call sent them; the transaction then rolls back.
  Tx(Pool::Lease& lease, bool prepared, const Timeouts& timeouts,
     std::span<const std::int64_t> lock_keys = {}, std::function<void()> on_begun = {});
  ~Tx();
  Tx(const Tx&) = delete;
  Tx& operator=(const Tx&) = delete;

  // Runs `s` with `args` as $1, $2, ... (after whatever is pending) and
  // returns its rows.
  template <typename... Args>
  pqxx::result Exec(const Statement& s, Args&&... args) {
    CheckDeadline();
    if (!prepared_) {
      return Guarded(false, [&] { return work_.exec_params(s.sql, std::forward<Args>(args)...); });
    }
    if (pending_.empty()) {
      return Guarded(false,
                     [&] { return work_.exec_prepared(s.name, std::forward<Args>(args)...); });
    }
    pending_.push_back(Call(s, {Literal(args)...}));
    return SendPending();
  }

  // Runs `s`, whose rows nobody reads, with the next message.
  template <typename... Args>
  void Defer(const Statement& s, Args&&... args) {
    if (!prepared_) {
      CheckDeadline();
      Guarded(false, [&] { return work_.exec_params(s.sql, std::forward<Args>(args)...); });
      return;
    }
    pending_.push_back(Call(s, {Literal(args)...}));
  }

  // Runs `s` and commits; returns the rows of `s`.
  template <typename... Args>
  pqxx::result ExecAndCommit(const Statement& s, Args&&... args) {
    if (!prepared_) {
      CheckDeadline();
      pqxx::result r =
          Guarded(false, [&] { return work_.exec_params(s.sql, std::forward<Args>(args)...); });
      Commit();
      return r;
    }
    pending_.push_back(Call(s, {Literal(args)...}));
    return SendPendingAndCommit();
  }

  // Commits (with whatever is pending), unless already committed.
  void Commit();

 private:
  template <typename T>
  std::string Literal(const T& arg) {
    return work_.quote(arg);
  }
  // EXECUTE of the prepared `s` with `literals`; prepares `s` on this
  // connection first if libpqxx has not yet.
  std::string Call(const Statement& s, std::initializer_list<std::string> literals);
  // Sends the pending statements as one message; the rows of the last.
  pqxx::result SendPending();
  // Sends the pending statements and COMMIT as one message; the rows of
  // the last pending statement.
  pqxx::result SendPendingAndCommit();
  // The opening statements were answered: tell the caller, once.
  void Begun();
  // Throws DeadlineError once the deadline passed.
  void CheckDeadline() const;
  // Runs `send`, one round trip, under the watchdog when there is a
  // deadline; when the watchdog cut the connection meanwhile, throws
  // DeadlineError instead of the broken connection. An answer that came as
  // the cut did still counts if it was the COMMIT's.
  template <typename F>
  auto Guarded(bool commits, F&& send) -> decltype(send()) {
    if (cut_after_) watch_ = lease_.WatchUntil(Deadline::Clock::now() + *cut_after_ + kCutGrace);
    auto answer = [&] {
      try {
        return send();
      } catch (...) {
        if (Unwatch()) ThrowCut(commits);
        throw;
      }
    }();
    if (Unwatch()) {
      if (!commits) ThrowCut(false);
      lease_.MarkBroken();  // committed, on a connection that is now cut
    }
    return answer;
  }
  // Ends the watch of the message in flight; true if it cut the connection.
  bool Unwatch();
  // Prepares `name` on this connection unless libpqxx did already (a round
  // trip the first time).
  void Prepare(const char* name);
  [[noreturn]] void ThrowCut(bool commits);
  void Rollback() noexcept;

  Pool::Lease& lease_;
  const bool prepared_;
  const Deadline deadline_;
  std::function<void()> on_begun_;
  // BEGIN/COMMIT are ours; libpqxx's own transaction classes cannot pin the
  // isolation level for every server default, so this one sends nothing.
  pqxx::nontransaction work_;
  // With a deadline: the statement_timeout it set, and the watch of the
  // message in flight.
  std::optional<std::chrono::milliseconds> cut_after_;
  std::unique_ptr<Watchdog::Watch> watch_;
  std::vector<std::string> pending_;  // statements not yet sent, in order
  bool sent_ = false;                 // the database has seen this transaction
  bool begun_ = false;                // on_begun_ was called
  bool done_ = false;                 // committed or rolled back
  bool cut_ = false;                  // the watchdog cut the connection
};

}  // namespace idres::detail
