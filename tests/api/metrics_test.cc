#include "api/service/metrics.h"

#include <catch2/catch.hpp>

#include "api/service/histogram.h"

namespace idres::api {
namespace {

TEST_CASE("A histogram renders cumulative buckets, sum and count") {
  Histogram h({0.1, 1});
  h.Observe(0.05);
  h.Observe(0.5);
  h.Observe(0.5);
  h.Observe(3);
  const std::string text = h.Render("x_seconds", "method=\"M\"");
  CHECK_THAT(text, Catch::Contains("x_seconds_bucket{method=\"M\",le=\"0.1\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("x_seconds_bucket{method=\"M\",le=\"1\"} 3\n"));
  CHECK_THAT(text, Catch::Contains("x_seconds_bucket{method=\"M\",le=\"+Inf\"} 4\n"));
  CHECK_THAT(text, Catch::Contains("x_seconds_sum{method=\"M\"} 4.05\n"));
  CHECK_THAT(text, Catch::Contains("x_seconds_count{method=\"M\"} 4\n"));
}

TEST_CASE("The engine's observations show up in the metrics text") {
  Metrics metrics;
  metrics.OnOutcome(Outcome::kCreated);
  metrics.OnOutcome(Outcome::kMerged);
  metrics.OnOutcome(Outcome::kMerged);
  metrics.OnLockWait(0.002);
  metrics.OnLockTimeout();
  metrics.OnRetry("deadlock");
  metrics.OnRetry("deadlock");
  metrics.OnRequest("Upsert", "ok", 0.01);
  metrics.OnUpsertGroup(3, false);
  metrics.OnUpsertGroup(2, true);
  metrics.OnUpsertsQueued(7);
  const std::string text = metrics.Render(2, 16);
  CHECK_THAT(text, Catch::Contains("idres_upsert_outcomes_total{outcome=\"created\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("idres_upsert_outcomes_total{outcome=\"merged\"} 2\n"));
  CHECK_THAT(text, Catch::Contains("idres_upsert_outcomes_total{outcome=\"unchanged\"} 0\n"));
  CHECK_THAT(text, Catch::Contains("idres_lock_wait_seconds_count 1\n"));
  CHECK_THAT(text, Catch::Contains("idres_lock_timeouts_total 1\n"));
  CHECK_THAT(text, Catch::Contains("idres_retries_total{reason=\"deadlock\"} 2\n"));
  CHECK_THAT(text, Catch::Contains("idres_rpc_requests_total{method=\"Upsert\",code=\"ok\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("idres_rpc_duration_seconds_count{method=\"Upsert\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("idres_pool_connections_in_use 2\n"));
  CHECK_THAT(text, Catch::Contains("idres_pool_connections 16\n"));
  CHECK_THAT(text, Catch::Contains("# TYPE idres_lock_wait_seconds histogram\n"));
  CHECK_THAT(text, Catch::Contains("idres_upsert_groups_total 2\n"));
  CHECK_THAT(text, Catch::Contains("idres_upserts_grouped_total 5\n"));
  CHECK_THAT(text, Catch::Contains("idres_upsert_group_failures_total 1\n"));
  CHECK_THAT(text, Catch::Contains("idres_upserts_queued 7\n"));
}

}  // namespace
}  // namespace idres::api
