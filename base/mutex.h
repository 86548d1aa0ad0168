// Mutex, MutexLock and CondVar: std::mutex and std::condition_variable with
// Clang's thread-safety attributes, so the compiler checks the locking rules
// written into the code (after leveldb's port/thread_annotations.h).
//
// A member a mutex guards is declared GUARDED_BY(mu_); a function that must
// be called with the mutex held is declared REQUIRES(mu_), one that takes it
// itself EXCLUDES(mu_). A clang build with -DIDRES_THREAD_SAFETY=ON
// (-Wthread-safety, as errors) then rejects a read or write of a guarded
// member without the lock, and a call of a REQUIRES function without it.
// libstdc++'s std::mutex carries no such attributes, hence these wrappers;
// the macros expand to nothing elsewhere, so GCC builds the code unchecked.
// Constructors and destructors are not checked (no other thread sees the
// object then).
//
// A wait takes the mutex it releases (as absl::CondVar does), so the check
// sees that the caller holds it. Conditions are re-checked in a loop around
// Wait(), not in a predicate lambda: the analysis does not know that a
// lambda passed to std::condition_variable runs under the lock.
//
// Thread-safety: Mutex and CondVar may be used from any thread; a MutexLock
// belongs to the thread that made it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

#if defined(__clang__)
#define IDRES_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define IDRES_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(name) IDRES_THREAD_ANNOTATION(capability(name))
#define SCOPED_CAPABILITY IDRES_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(mu) IDRES_THREAD_ANNOTATION(guarded_by(mu))
#define REQUIRES(...) IDRES_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define ACQUIRE(...) IDRES_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) IDRES_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define EXCLUDES(...) IDRES_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))

namespace idres {

class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ACQUIRE() { mu_.lock(); }
  void Unlock() RELEASE() { mu_.unlock(); }

 private:
  friend class CondVar;
  std::mutex mu_;
};

// Holds `*mu` from construction to the end of the scope, except between an
// Unlock() and the next Lock() (work that must not hold it).
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ACQUIRE(mu) : mu_(mu) { mu_->Lock(); }
  ~MutexLock() RELEASE() {
    if (held_) mu_->Unlock();
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  void Unlock() RELEASE() {
    mu_->Unlock();
    held_ = false;
  }
  void Lock() ACQUIRE() {
    mu_->Lock();
    held_ = true;
  }

 private:
  Mutex* const mu_;
  bool held_ = true;
};

class CondVar {
 public:
  // Releases `*mu`, waits for a notification (or a spurious wake-up) and
  // holds `*mu` again before returning.
  void Wait(Mutex* mu) REQUIRES(*mu) {
    std::unique_lock<std::mutex> lock(mu->mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();  // the caller's lock again
  }
  // As Wait(), up to `at`; false when `at` passed without a notification.
  template <typename Clock, typename Duration>
  bool WaitUntil(Mutex* mu, const std::chrono::time_point<Clock, Duration>& at) REQUIRES(*mu) {
    std::unique_lock<std::mutex> lock(mu->mu_, std::adopt_lock);
    const bool notified = cv_.wait_until(lock, at) == std::cv_status::no_timeout;
    lock.release();
    return notified;
  }
  void NotifyOne() { cv_.notify_one(); }
  void NotifyAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace idres
