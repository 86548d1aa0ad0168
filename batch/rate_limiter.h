// RateLimiter: caps how many items per second pass Acquire(), across all
// threads, so a bulk job can run beside live traffic without crowding it
// out (import --max-rate). A rate of 0 means no cap.
//
// Thread-safety: Acquire() may be called from any number of threads.
#pragma once

#include <chrono>
#include <cstddef>

#include "base/mutex.h"

namespace idres::batch {

class RateLimiter {
 public:
  explicit RateLimiter(double per_second);

  // Blocks until `count` more items fit under the rate.
  void Acquire(std::size_t count) EXCLUDES(mutex_);

 private:
  double per_second_;
  Mutex mutex_;
  std::chrono::steady_clock::time_point next_ GUARDED_BY(mutex_);
};

}  // namespace idres::batch
