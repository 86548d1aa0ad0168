#include "engine/detail/pool.h"

#include <algorithm>
#include <utility>

#include "engine/detail/sqlstate.h"
#include "engine/errors.h"

namespace idres::detail {

Pool::Pool(std::string url, int size, bool prepared)
    : url_(std::move(url)), size_(size < 1 ? 1 : size), prepared_(prepared) {
  for (int i = 0; i < size_; ++i) idle_.push_back(Open());
}

Pool::~Pool() = default;

std::unique_ptr<PgConn> Pool::Open(const Deadline& deadline) const {
  const auto left = deadline.Remaining();
  const long long seconds = left ? std::max<long long>(2, (left->count() + 999) / 1000) : 0;
  try {
    return std::make_unique<PgConn>(url_, prepared_, seconds);
  } catch (const std::exception& e) {
    // A bad URL or a refused connection: the caller can only wait and retry.
    ThrowEngineError(Failure::kUnavailable, e);
  }
}

Pool::Lease Pool::Borrow(const Deadline& deadline) {
  std::unique_ptr<PgConn> conn;
  {
    MutexLock lock(&mu_);
    // Free slots = size - lent; idle connections fill some of them, the rest
    // were dropped as broken and reconnect here. A free slot goes to this
    // caller only when nobody queued before it.
    if (lent_ < size_ && waiters_.empty()) {
      ++lent_;
    } else {
      Waiter self;
      waiters_.push_back(&self);
      // Return() passed its slot on: lent_ already counts this caller.
      const auto at = deadline.at();
      while (!self.granted) {
        if (!at) {
          self.granted_cv.Wait(&mu_);
        } else if (!self.granted_cv.WaitUntil(&mu_, *at) && !self.granted) {
          // Never granted, so Return() has not touched this waiter: leave.
          waiters_.erase(std::find(waiters_.begin(), waiters_.end(), &self));
          throw DeadlineError("no database connection came free before the deadline");
        }
      }
    }
    if (!idle_.empty()) {
      conn = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  // A connection the server closed while it was idle would fail this
  // caller's first statement; open its slot anew instead.
  if (conn && !conn->StillUp()) conn.reset();
  if (!conn) {
    try {
      conn = Open(deadline);
    } catch (const UnavailableError&) {
      Return(nullptr, true);
      if (deadline.Passed()) {
        throw DeadlineError("the deadline passed while connecting to the database");
      }
      throw;
    } catch (...) {
      Return(nullptr, true);
      throw;
    }
  }
  return Lease(this, std::move(conn));
}

void Pool::Return(std::unique_ptr<PgConn> conn, bool broken) {
  std::unique_ptr<PgConn> drop;  // closed outside the mutex
  MutexLock lock(&mu_);
  if (conn && !broken && conn->ok()) {
    idle_.push_back(std::move(conn));
  } else {
    drop = std::move(conn);
  }
  if (waiters_.empty()) {
    --lent_;
    return;
  }
  // The slot passes to the oldest waiter. Notified under the mutex: once it
  // sees `granted` it may return and destroy its Waiter.
  Waiter* next = waiters_.front();
  waiters_.pop_front();
  next->granted = true;
  next->granted_cv.NotifyOne();
}

int Pool::InUse() const {
  MutexLock lock(&mu_);
  return lent_;
}

int Pool::Waiting() const {
  MutexLock lock(&mu_);
  return static_cast<int>(waiters_.size());
}

Pool::Lease::Lease(Pool* pool, std::unique_ptr<PgConn> conn)
    : pool_(pool), conn_(std::move(conn)) {}

Pool::Lease::Lease(Lease&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)),
      conn_(std::move(other.conn_)),
      broken_(other.broken_) {}

std::unique_ptr<Watchdog::Watch> Pool::Lease::WatchUntil(Deadline::Clock::time_point at) {
  return pool_->watchdog_.Arm(conn_->socket(), at);
}

Pool::Lease::~Lease() {
  if (pool_ != nullptr) pool_->Return(std::move(conn_), broken_);
}

}  // namespace idres::detail
