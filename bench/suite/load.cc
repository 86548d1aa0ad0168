#include "bench/suite/load.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

namespace idres::bench {
namespace {

using Clock = std::chrono::steady_clock;

// The q-quantile (0..1) of `values` by nearest rank; 0 when empty. Sorts.
double Quantile(std::vector<double>& values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
  return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

// One operation's `outcome`, `ms` after it began, into `tally`.
void Count(LoadResult& tally, const OpOutcome& outcome, double ms) {
  if (outcome.ok) {
    ++tally.ok;
    tally.latencies_ms.push_back(ms);
  } else if (tally.errors++ == 0) {
    tally.first_error = outcome.error;
  }
}

double MillisSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

LoadResult RunClosedLoop(const LoadOptions& options, const Op& op) {
  std::vector<LoadResult> tallies(options.clients);  // each client's own operations
  std::atomic<std::int64_t> next_seq{0};
  std::atomic<bool> go{false};
  std::atomic<int> ready{0};
  Clock::time_point start;
  const auto duration = std::chrono::duration_cast<Clock::duration>(options.duration);

  std::vector<std::thread> threads;
  threads.reserve(options.clients);
  for (int c = 0; c < options.clients; ++c) {
    threads.emplace_back([&, c] {
      LoadResult& tally = tallies[c];
      tally.latencies_ms.reserve(4096);
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      const auto deadline = start + duration;
      while (Clock::now() < deadline) {
        const std::int64_t seq = next_seq.fetch_add(1);
        if (seq >= options.max_ops) break;
        const auto t0 = Clock::now();
        OpOutcome outcome;
        try {
          outcome = op(c, seq);
        } catch (const std::exception& e) {
          outcome = {false, e.what()};
        }
        Count(tally, outcome, MillisSince(t0));
      }
    });
  }
  while (ready.load() < options.clients) std::this_thread::yield();
  start = Clock::now();
  go.store(true, std::memory_order_release);
  for (auto& t : threads) t.join();

  LoadResult result;
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (auto& t : tallies) {
    result.ok += t.ok;
    result.errors += t.errors;
    if (result.first_error.empty()) result.first_error = t.first_error;
    result.latencies_ms.insert(result.latencies_ms.end(), t.latencies_ms.begin(),
                               t.latencies_ms.end());
  }
  return result;
}

LoadResult RunAsyncLoop(const LoadOptions& options, const StartOp& start, const NextOutcome& next) {
  LoadResult result;
  result.latencies_ms.reserve(65536);
  std::vector<Clock::time_point> began(options.clients);
  std::int64_t next_seq = 0;
  int in_flight = 0;
  const Clock::time_point t0 = Clock::now();
  const auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(options.duration);
  const auto begin = [&](int c) {
    if (next_seq >= options.max_ops || Clock::now() >= deadline) return;
    began[c] = Clock::now();
    start(c, next_seq++);
    ++in_flight;
  };
  for (int c = 0; c < options.clients; ++c) begin(c);
  while (in_flight > 0) {
    auto [c, outcome] = next();
    --in_flight;
    Count(result, outcome, MillisSince(began[c]));
    begin(c);
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return result;
}

void SetLatencies(RunResult& r, std::vector<double>& latencies_ms) {
  r.p50_ms = Quantile(latencies_ms, 0.50);
  r.p95_ms = Quantile(latencies_ms, 0.95);
  r.p99_ms = Quantile(latencies_ms, 0.99);
}

void SetFromLoad(RunResult& r, LoadResult& load, std::int64_t ops, std::int64_t errors) {
  r.ops = ops;
  r.errors = errors;
  r.first_error = load.first_error;
  r.seconds = load.seconds;
  r.throughput = load.seconds > 0 ? static_cast<double>(ops) / load.seconds : 0;
  SetLatencies(r, load.latencies_ms);
}

}  // namespace idres::bench
