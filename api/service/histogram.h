// Histogram: a Prometheus histogram with fixed bucket bounds (seconds).
// Thread-safe: Observe and Render may be called from any threads at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace idres::api {

class Histogram {
 public:
  // Bounds of the buckets, ascending; +Inf is implied.
  explicit Histogram(std::vector<double> bounds);

  // Counts one observation.
  void Observe(double value);

  // The _bucket, _sum and _count lines for `name`, with `labels` (e.g.
  // method="Upsert", or empty) on every line.
  std::string Render(std::string_view name, std::string_view labels) const;

  // Default bounds for request and lock-wait latencies: 0.5 ms .. 10 s.
  static std::vector<double> LatencyBounds();

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> counts_;  // per bucket, not cumulative
  std::atomic<std::uint64_t> count_{0};
  std::atomic<double> sum_{0.0};
};

}  // namespace idres::api
