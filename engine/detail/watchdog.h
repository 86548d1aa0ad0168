// Watchdog: bounds a wait for the database that PostgreSQL cannot bound.
//
// A caller's deadline becomes the transaction's statement_timeout, which a
// running server enforces. A server that stopped answering (a frozen host,
// a network partition) never sends that error, and libpq waits in poll()
// with no bound. Arm() names a connection's socket and a moment; if the
// moment passes before the returned Watch ends, the watchdog shuts the
// socket down: libpq's wait returns, the call fails as a broken connection,
// and the pool replaces the connection. The watch is marked fired before
// the cut, so a caller whose wait returned because of it always finds it so.
//
// The watchdog keeps a descriptor of its own for each armed socket (libpq
// closes its descriptor when a connection fails, and the number may then be
// reused by another file), and closes it when the Watch ends or fires.
//
// Thread-safety: Arm() and a Watch's destructor may run on any thread.
// A thread, started by the first Arm(), looks for due watches every kTick.
// Internal to engine/.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <thread>

#include "base/mutex.h"
#include "engine/deadline.h"

namespace idres::detail {

class Watchdog {
 public:
  // How often the thread looks for a watch that is due: a cut comes at most
  // this late, which the grace a caller adds to its moment absorbs.
  static constexpr std::chrono::milliseconds kTick{50};

  Watchdog() = default;
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // Disarms on destruction.
  class Watch {
   public:
    ~Watch() { End(); }
    Watch(const Watch&) = delete;
    Watch& operator=(const Watch&) = delete;
    // The watchdog has cut (or is cutting) the socket.
    bool fired() const { return fired_->load(); }
    // Disarms: the socket is not cut after this returns. True when the cut
    // came first, even if the caller's wait ended before it (an answer
    // that arrived as the moment passed): the connection is unusable then.
    bool End();

   private:
    friend class Watchdog;
    Watch(Watchdog* dog, std::uint64_t id, std::shared_ptr<std::atomic<bool>> fired)
        : dog_(dog), id_(id), fired_(std::move(fired)) {}
    Watchdog* dog_;
    std::uint64_t id_;
    std::shared_ptr<std::atomic<bool>> fired_;
    bool ended_ = false;
  };

  // Shuts socket `fd` down at `at` unless the Watch ends first.
  std::unique_ptr<Watch> Arm(int fd, Deadline::Clock::time_point at) EXCLUDES(mu_);

 private:
  struct Entry {
    int fd;  // the watchdog's own duplicate; -1 when dup failed
    Deadline::Clock::time_point at;
    std::shared_ptr<std::atomic<bool>> fired;
  };
  void Run() EXCLUDES(mu_);
  void Disarm(std::uint64_t id) EXCLUDES(mu_);

  Mutex mu_;
  CondVar stopped_;  // wakes the thread for the destructor
  std::map<std::uint64_t, Entry> entries_ GUARDED_BY(mu_);
  std::uint64_t next_id_ GUARDED_BY(mu_) = 0;
  bool stopping_ GUARDED_BY(mu_) = false;
  std::thread thread_ GUARDED_BY(mu_);  // started by the first Arm()
};

}  // namespace idres::detail
