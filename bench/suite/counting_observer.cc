#include "bench/suite/counting_observer.h"

namespace idres::bench {

void CountingObserver::OnLockWait(double seconds) {
  const auto ns = static_cast<std::int64_t>(seconds * 1e9);
  wait_ns_.fetch_add(ns, std::memory_order_relaxed);
  std::int64_t seen = max_wait_ns_.load(std::memory_order_relaxed);
  while (ns > seen && !max_wait_ns_.compare_exchange_weak(seen, ns, std::memory_order_relaxed)) {
  }
}

void CountingObserver::OnOutcome(Outcome outcome) {
  outcomes_[static_cast<std::size_t>(outcome)].fetch_add(1, std::memory_order_relaxed);
}

OutcomeCounts CountingObserver::outcomes() const {
  OutcomeCounts counts;
  for (const Outcome o : kOutcomes) counts[o] = outcomes_[static_cast<std::size_t>(o)].load();
  return counts;
}

double CountingObserver::lock_wait_seconds() const {
  return static_cast<double>(wait_ns_.load()) / 1e9;
}

double CountingObserver::max_lock_wait_seconds() const {
  return static_cast<double>(max_wait_ns_.load()) / 1e9;
}

}  // namespace idres::bench
