// RunConcurrently: the start line for concurrency tests.
//
// Runs fn(i) for i in [0, n) on n threads that are all released at the same
// moment by one barrier, waits for every one to end, then rethrows the first
// exception any of them threw. A race is only real when each fn uses its own
// database connection: give the engine a pool of at least n connections
// (a one-connection pool makes every race test pass; see the seeds).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

#include "base/mutex.h"

namespace idres::testing {

void RunConcurrently(int n, const std::function<void(int)>& fn);

// Rendezvous: a reusable meeting point inside racing code. Arrive() returns
// once `n` threads have arrived (then the next generation starts), or when
// `give_up` passed without that (a racer that already finished or failed
// must not hang the others: nothing is asserted on the time). Used where a
// barrier cannot deadlock, e.g. in the unlocked rounds of a race, to make
// every racer read the same stale state before any of them writes.
// Thread-safe.
class Rendezvous {
 public:
  explicit Rendezvous(int n, std::chrono::milliseconds give_up = std::chrono::milliseconds(200));

  // Blocks until this generation is complete or given up on.
  void Arrive() EXCLUDES(mu_);

 private:
  const int n_;
  const std::chrono::milliseconds give_up_;
  Mutex mu_;
  CondVar cv_;
  int arrived_ GUARDED_BY(mu_) = 0;
  std::uint64_t generation_ GUARDED_BY(mu_) = 0;
};

}  // namespace idres::testing
