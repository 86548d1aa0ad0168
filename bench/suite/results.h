// The figures one benchmark run produces, as plain values: what the table,
// the JSON file and the chart are made from. Safe to copy between threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace idres::bench {

// What the store looked like after a run, against what the scenario implies.
struct StoreCheck {
  bool ran = false;
  std::int64_t persons = 0;
  std::int64_t expected_persons = 0;
  std::int64_t merged_away = 0;
  // Values of a unique type held by more than one person.
  std::int64_t duplicated_values = 0;
  bool ok = false;
  std::string detail;  // why not ok, for people
};

// One closed-loop measurement: `clients` callers, each issuing its next
// request as soon as the previous one answered.
struct RunResult {
  std::string section = "scenario";  // "scenario", "scale", "import", "normalize"
  std::string scenario;              // "a" .. "f"
  std::string variant;               // "idres", "naive", "pgbench", "copy"
  std::string transport;             // "in-process", "http", "sql", "cli"
  int clients = 0;
  std::int64_t preload = 0;  // persons in the store before the run
  std::int64_t ops = 0;      // successful operations (records for imports)
  std::int64_t errors = 0;   // operations that threw or answered an error
  std::string first_error;
  double seconds = 0;
  double throughput = 0;  // ops per second
  double p50_ms = 0, p95_ms = 0, p99_ms = 0;
  std::optional<double> lock_wait_ms_per_op;  // EngineObserver::OnLockWait
  std::optional<double> lock_wait_ms_max;
  std::int64_t retries = 0;
  std::optional<std::int64_t> created;           // upserts that created a person
  std::optional<std::int64_t> merged;            // upserts that merged persons
  std::optional<std::int64_t> expected_created;  // creations the records imply
  std::optional<double> commits_per_op;          // pg_stat_database deltas
  std::optional<double> rollbacks_per_op;        // pg_stat_database deltas
  StoreCheck check;
  bool check_must_pass = true;  // false for the naive baseline: data only
  std::string note;
  // With --repeat: the throughput of each round, in round order (0 for a
  // round where it failed); the fields above are the median round's.
  std::vector<double> rounds;
  // Imports: the throughput of each tenth of the records, in order.
  std::vector<double> tenths;
};

// Round trips and statements of one upsert, counted on the wire.
struct WireCount {
  std::string scenario;
  std::int64_t ops = 0;
  double round_trips_per_op = 0;
  double statements_per_op = 0;
  double transactions_per_op = 0;  // BEGINs seen
};

// One of the suite's goals (BENCHMARKS.md): reported, never asserted.
struct Goal {
  std::string name;
  std::string target;    // e.g. ">= 0.80"
  std::string measured;  // e.g. "0.71 (http 1234/s vs pgbench 1738/s)"
  std::string verdict;   // "met", "not met", "not measured"
};

struct SuiteResults {
  std::vector<RunResult> runs;
  std::vector<Goal> goals;
  std::vector<WireCount> wire;
  std::vector<std::string> failures;  // wrong stores and broken runs
  std::vector<std::string> notes;
};

}  // namespace idres::bench
