// CountingObserver: the EngineObserver the in-process runs attach, summing
// what the engine reports: lock-wait time (OnLockWait), its maximum,
// retries, and the upserts by outcome (created: where the
// naive path's duplicates show even if later upserts merge them).
// Thread-safety: every method may be called from all engine threads at once
// (relaxed atomics; totals are read once the run is over).
#pragma once

#include <atomic>
#include <cstdint>
#include <iterator>

#include "engine/observer.h"
#include "engine/outcome_counts.h"

namespace idres::bench {

class CountingObserver final : public EngineObserver {
 public:
  void OnLockWait(double seconds) override;
  void OnRetry(std::string_view) override { retries_.fetch_add(1, std::memory_order_relaxed); }
  void OnOutcome(Outcome outcome) override;

  // Total seconds waited for advisory locks.
  double lock_wait_seconds() const;
  // Longest single wait, seconds.
  double max_lock_wait_seconds() const;
  std::int64_t retries() const { return retries_.load(); }
  // Committed upserts by outcome.
  OutcomeCounts outcomes() const;

 private:
  std::atomic<std::int64_t> wait_ns_{0};
  std::atomic<std::int64_t> max_wait_ns_{0};
  std::atomic<std::int64_t> retries_{0};
  std::atomic<std::int64_t> outcomes_[std::size(kOutcomes)] = {};
};

}  // namespace idres::bench
