#include "bench/suite/counting_observer.h"

namespace idres::bench {

void CountingObserver::OnLockWait(double seconds) {
  const auto ns = static_cast<std::int64_t>(seconds * 1e9);
  wait_ns_.fetch_add(ns, std::memory_order_relaxed);
  waits_.fetch_add(1, std::memory_order_relaxed);
  std::int64_t seen = max_wait_ns_.load(std::memory_order_relaxed);
  while (ns > seen && !max_wait_ns_.compare_exchange_weak(seen, ns, std::memory_order_relaxed)) {
  }
}

void CountingObserver::OnOutcome(Outcome outcome) {
  if (outcome == Outcome::kCreated) created_.fetch_add(1, std::memory_order_relaxed);
  if (outcome == Outcome::kMerged) merged_.fetch_add(1, std::memory_order_relaxed);
}

double CountingObserver::lock_wait_seconds() const {
  return static_cast<double>(wait_ns_.load()) / 1e9;
}

double CountingObserver::max_lock_wait_seconds() const {
  return static_cast<double>(max_wait_ns_.load()) / 1e9;
}

}  // namespace idres::bench
