// The figures to reach, computed from a suite's runs. Goals are reported
// honestly, never asserted: a missed goal does not fail the run.
//   1. upsert over HTTP at 32 clients >= 0.8 x pgbench on the same SQL shape (a),
//      against pgbench's best client count (the database's own limit);
//   2. the locks cost <= 15% against the naive path in scenario (a);
//   3. import with 8 workers >= 0.5 x COPY of the same rows, in-process and
//      over HTTP, without errors;
//   4. throughput at 1,000,000 persons >= 0.8 x at 10,000;
//   5. an import into a fresh store: its last tenth >= 0.8 x its first.
// Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/suite/results.h"

namespace idres::bench {

// Goal 1's client count.
inline constexpr int kGoalHttpClients = 32;
// Goal 3's import workers.
inline constexpr int kGoalImportWorkers = 8;

// The run of `section` matching scenario, variant, transport and clients
// (and preload when not 0), if any.
const RunResult* FindRun(const std::vector<RunResult>& runs, const std::string& section,
                         const std::string& scenario, const std::string& variant,
                         const std::string& transport, int clients, std::int64_t preload = 0);

// throughput(a) / throughput(b) when both exist and b is not zero.
std::optional<double> Ratio(const RunResult* a, const RunResult* b);

// a's throughput over b's, round by round when both ran in the same rounds
// (--repeat): the median of the rounds' ratios, so that a slow phase of
// the machine, which slows every variant of a round at once, cancels out
// instead of landing on one side of a ratio of medians. Otherwise Ratio().
std::optional<double> PairedRatio(const RunResult* a, const RunResult* b);

std::vector<Goal> EvaluateGoals(const std::vector<RunResult>& runs);

}  // namespace idres::bench
