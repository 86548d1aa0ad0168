// RunClosedLoop: the load generator. `clients` threads, released together,
// each calling `op` again as soon as the previous call returned, until the
// duration is over or `max_ops` operations were started. Every operation gets
// a distinct sequence number, so workloads can derive unique records from it.
//
// Thread-safety: `op` is called from all client threads at once and must be
// safe for that; RunClosedLoop itself is a plain blocking function.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "bench/suite/results.h"

namespace idres::bench {

struct LoadOptions {
  int clients = 1;
  std::chrono::duration<double> duration{5.0};
  std::int64_t max_ops = std::numeric_limits<std::int64_t>::max();
};

// What one operation reports: success, or the error text.
struct OpOutcome {
  bool ok = true;
  std::string error;
};

using Op = std::function<OpOutcome(int client, std::int64_t seq)>;

struct LoadResult {
  std::int64_t ok = 0;
  std::int64_t errors = 0;
  std::string first_error;
  double seconds = 0;                // wall time from release to the last answer
  std::vector<double> latencies_ms;  // of successful operations
};

// Runs the closed loop described in the file comment.
LoadResult RunClosedLoop(const LoadOptions& options, const Op& op);

// The same closed loop from one thread over an asynchronous client:
// `start(client, seq)` begins an operation for `client`, `next()` waits for
// one to end and says whose it was and how it went.
using StartOp = std::function<void(int client, std::int64_t seq)>;
using NextOutcome = std::function<std::pair<int, OpOutcome>()>;
LoadResult RunAsyncLoop(const LoadOptions& options, const StartOp& start, const NextOutcome& next);

// Sets r's p50, p95 and p99 from latencies in milliseconds. Sorts them.
void SetLatencies(RunResult& r, std::vector<double>& latencies_ms);

// Sets r's ops and errors to these, and from `load` its first error, its
// seconds, the ops per second and the latencies (sorting them).
void SetFromLoad(RunResult& r, LoadResult& load, std::int64_t ops, std::int64_t errors);

}  // namespace idres::bench
