#include "batch/rate_limiter.h"

#include <thread>

namespace idres::batch {

RateLimiter::RateLimiter(double per_second)
    : per_second_(per_second), next_(std::chrono::steady_clock::now()) {}

void RateLimiter::Acquire(std::size_t count) {
  if (per_second_ <= 0) return;
  std::chrono::steady_clock::time_point start;
  {
    MutexLock lock(&mutex_);
    auto now = std::chrono::steady_clock::now();
    if (next_ < now) next_ = now;
    start = next_;
    next_ += std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(static_cast<double>(count) / per_second_));
  }
  std::this_thread::sleep_until(start);
}

}  // namespace idres::batch
