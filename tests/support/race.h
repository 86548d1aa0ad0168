// RunConcurrently: the start line for concurrency tests.
//
// Runs fn(i) for i in [0, n) on n threads that are all released at the same
// moment by one barrier, waits for every one to end, then rethrows the first
// exception any of them threw. A race is only real when each fn uses its own
// database connection: give the engine a pool of at least n connections
// (a one-connection pool makes every race test pass; see the seeds).
#pragma once

#include <functional>

namespace idres::testing {

void RunConcurrently(int n, const std::function<void(int)>& fn);

}  // namespace idres::testing
