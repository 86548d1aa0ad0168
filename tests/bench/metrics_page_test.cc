#include "bench/suite/metrics_page.h"

#include <catch2/catch.hpp>

#include <string>

namespace idres::bench {
namespace {

// The shape api/service/metrics.cc renders, trimmed to what the bench reads.
std::string Page(int created, int merged, int deadlocks, double wait) {
  return "# HELP idres_upsert_outcomes_total Committed upserts, by outcome.\n"
         "# TYPE idres_upsert_outcomes_total counter\n"
         "idres_upsert_outcomes_total{outcome=\"created\"} " +
         std::to_string(created) +
         "\n"
         "idres_upsert_outcomes_total{outcome=\"updated\"} 7\n"
         "idres_upsert_outcomes_total{outcome=\"merged\"} " +
         std::to_string(merged) +
         "\n"
         "idres_upsert_outcomes_total{outcome=\"unchanged\"} 0\n"
         "idres_lock_wait_seconds_bucket{le=\"0.001\"} 3\n"
         "idres_lock_wait_seconds_sum " +
         std::to_string(wait) +
         "\n"
         "idres_lock_wait_seconds_count 10\n"
         "idres_lock_timeouts_total 0\n"
         "idres_retries_total{reason=\"deadlock\"} " +
         std::to_string(deadlocks) +
         "\n"
         "idres_retries_total{reason=\"unique_violation\"} 2\n"
         "idres_retries_total_other 100\n";
}

TEST_CASE("MetricValue finds a sample by its exact name and labels") {
  const std::string page = Page(5, 1, 0, 0.25);
  CHECK(MetricValue(page, R"(idres_upsert_outcomes_total{outcome="created"})") == 5);
  CHECK(MetricValue(page, "idres_lock_wait_seconds_sum") == 0.25);
  CHECK_FALSE(MetricValue(page, "idres_upsert_outcomes_total").has_value());
  CHECK_FALSE(MetricValue(page, "idres_lock_wait_seconds").has_value());
}

TEST_CASE("MetricSum adds every labelled sample of one metric, and only that metric") {
  CHECK(MetricSum(Page(0, 0, 3, 0), "idres_retries_total") == 5);
  CHECK(MetricSum(Page(0, 0, 3, 0), "idres_no_such_metric") == 0);
}

TEST_CASE("the served counts of a run are the difference of two scrapes") {
  const auto before = ParseServedCounts(Page(10, 2, 1, 0.5));
  const auto after = ParseServedCounts(Page(25, 6, 4, 2.0));
  REQUIRE(before);
  REQUIRE(after);
  const ServedCounts run = Difference(*after, *before);
  CHECK(run.created == 15);
  CHECK(run.merged == 4);
  CHECK(run.updated == 0);
  CHECK(run.retries == 3);
  CHECK(run.lock_wait_seconds == Approx(1.5));
}

TEST_CASE("a page without the outcome counter is not an idres /metrics page") {
  CHECK_FALSE(ParseServedCounts("# nothing here\nother_total 3\n").has_value());
  CHECK_FALSE(ParseServedCounts("").has_value());
}

}  // namespace
}  // namespace idres::bench
