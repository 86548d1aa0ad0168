// What a running `idres serve` says about its own work on GET /metrics
// (api/service/metrics.h, Prometheus text): the committed upserts by outcome, the
// retries and the advisory-lock wait. The HTTP runs scrape the page before
// and after their load and keep the difference, so an HTTP row's counts are
// the served process's own, not the in-process run's.
// Pure functions of the page text, plus one blocking scrape; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/outcome_counts.h"

namespace idres::bench {

struct ServedCounts : OutcomeCounts {
  std::int64_t retries = 0;  // every reason
  double lock_wait_seconds = 0;
};

// The value of the sample `sample` in `page`, written exactly as on the page
// (labels included, e.g. `x_total{outcome="created"}`).
std::optional<double> MetricValue(std::string_view page, std::string_view sample);

// The sum of every sample of metric `name`, whatever its labels; 0 if none.
double MetricSum(std::string_view page, std::string_view name);

// The counts on `page`; nullopt when it has no upsert outcome counter (not
// an idres /metrics page).
std::optional<ServedCounts> ParseServedCounts(std::string_view page);

// `after` minus `before`, field by field.
ServedCounts Difference(const ServedCounts& after, const ServedCounts& before);

// GETs /metrics from 127.0.0.1:`port` on a connection of its own and parses
// it. Throws std::runtime_error on I/O failure, a status other than 200, or
// a page without the outcome counter.
ServedCounts ScrapeServedCounts(int port);

}  // namespace idres::bench
