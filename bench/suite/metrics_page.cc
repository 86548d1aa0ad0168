#include "bench/suite/metrics_page.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "client/http_client.h"

namespace idres::bench {
namespace {

// Calls fn(sample, value) for every sample line of `page` (comments skipped).
template <typename Fn>
void ForEachSample(std::string_view page, Fn fn) {
  std::size_t pos = 0;
  while (pos < page.size()) {
    const std::size_t end = std::min(page.find('\n', pos), page.size());
    const std::string_view line = page.substr(pos, end - pos);
    pos = end + 1;
    const std::size_t space = line.rfind(' ');
    if (line.empty() || line[0] == '#' || space == std::string_view::npos) continue;
    fn(line.substr(0, space), std::strtod(std::string(line.substr(space + 1)).c_str(), nullptr));
  }
}

}  // namespace

std::optional<double> MetricValue(std::string_view page, std::string_view sample) {
  std::optional<double> found;
  ForEachSample(page, [&](std::string_view s, double v) {
    if (!found && s == sample) found = v;
  });
  return found;
}

double MetricSum(std::string_view page, std::string_view name) {
  double sum = 0;
  ForEachSample(page, [&](std::string_view s, double v) {
    if (s.substr(0, name.size()) == name && (s.size() == name.size() || s[name.size()] == '{')) {
      sum += v;
    }
  });
  return sum;
}

std::optional<ServedCounts> ParseServedCounts(std::string_view page) {
  const auto sample = [](Outcome o) {
    return "idres_upsert_outcomes_total{outcome=\"" + std::string(OutcomeName(o)) + "\"}";
  };
  if (!MetricValue(page, sample(Outcome::kCreated))) return std::nullopt;
  ServedCounts c;
  for (const Outcome o : kOutcomes) {
    c[o] = static_cast<std::int64_t>(MetricValue(page, sample(o)).value_or(0));
  }
  c.retries = static_cast<std::int64_t>(MetricSum(page, "idres_retries_total"));
  c.lock_wait_seconds = MetricValue(page, "idres_lock_wait_seconds_sum").value_or(0);
  return c;
}

ServedCounts Difference(const ServedCounts& after, const ServedCounts& before) {
  ServedCounts c;
  static_cast<OutcomeCounts&>(c) = after.Since(before);
  c.retries = after.retries - before.retries;
  c.lock_wait_seconds = after.lock_wait_seconds - before.lock_wait_seconds;
  return c;
}

ServedCounts ScrapeServedCounts(int port) {
  const client::HttpResponse resp = client::HttpClient(port).Get("/metrics");
  if (resp.status != 200) {
    throw std::runtime_error("GET /metrics answered " + std::to_string(resp.status));
  }
  const auto counts = ParseServedCounts(resp.body);
  if (!counts) throw std::runtime_error("GET /metrics has no idres_upsert_outcomes_total");
  return *counts;
}

}  // namespace idres::bench
