// Pool: a fixed number of PostgreSQL connections shared by threads.
//
// All connections are opened at construction. Borrow() blocks while every
// connection is lent out (up to the caller's deadline), and callers are
// served first come, first served:
// a returned connection passes to the longest waiter, never to a caller that
// arrived later (not even the one returning it), so no caller starves while
// others borrow again and again. A lease whose connection broke (or was marked
// broken) is dropped on return and its slot reconnects on the next borrow,
// so one lost connection never poisons later calls. An idle connection the
// server has closed meanwhile (a restart, a terminated backend) is noticed
// when borrowed and replaced before the caller sees it.
//
// Thread-safety: Borrow() and InUse() may be called from any thread; a Lease
// belongs to the thread that borrowed it. Internal to engine/.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "engine/deadline.h"
#include "engine/detail/pg_conn.h"
#include "engine/detail/watchdog.h"

namespace idres::detail {

class Pool {
 public:
  // Opens `size` connections to `url`, preparing the engine's statements on
  // each when `prepared`. Throws UnavailableError.
  Pool(std::string url, int size, bool prepared);
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  class Lease {
   public:
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    PgConn& conn() { return *conn_; }
    // Shuts this connection's socket down at `at` unless the Watch ends
    // first (watchdog.h): for a wait the server does not bound.
    std::unique_ptr<Watchdog::Watch> WatchUntil(Deadline::Clock::time_point at);
    // The connection must not be reused (e.g. a ROLLBACK failed).
    void MarkBroken() { broken_ = true; }

   private:
    friend class Pool;
    Lease(Pool* pool, std::unique_ptr<PgConn> conn);
    Pool* pool_;
    std::unique_ptr<PgConn> conn_;
    bool broken_ = false;
  };

  // A connection for the caller's exclusive use until the lease ends.
  // Throws UnavailableError when a slot must reconnect and cannot, and
  // DeadlineError when `deadline` passes while waiting (the caller then
  // leaves the queue: no connection is lost) or while reconnecting.
  Lease Borrow(const Deadline& deadline = {}) EXCLUDES(mu_);

  int InUse() const EXCLUDES(mu_);
  // Callers blocked in Borrow().
  int Waiting() const EXCLUDES(mu_);

 private:
  // A caller blocked in Borrow(), granted a slot by Return(). `granted` is
  // guarded by the pool's mu_, unannotated: a nested type cannot name it.
  struct Waiter {
    CondVar granted_cv;
    bool granted = false;
  };

  // A new connection, prepared. With a deadline, connecting gives up by
  // then (libpq's connect_timeout, whole seconds, at least 2) unless the URL
  // names its own connect_timeout: a host that does not answer cannot hold
  // the caller.
  std::unique_ptr<PgConn> Open(const Deadline& deadline = {}) const;
  void Return(std::unique_ptr<PgConn> conn, bool broken) EXCLUDES(mu_);

  const std::string url_;
  const int size_;
  const bool prepared_;
  mutable Mutex mu_;
  std::vector<std::unique_ptr<PgConn>> idle_ GUARDED_BY(mu_);
  std::deque<Waiter*> waiters_ GUARDED_BY(mu_);  // oldest first
  int lent_ GUARDED_BY(mu_) = 0;
  Watchdog watchdog_;
};

}  // namespace idres::detail
