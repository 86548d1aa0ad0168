// The measurements of scenarios (a)-(d): each in a database of its own,
// cloned from a preloaded template, followed by the store check.
//   RunEngine    in-process: an Engine with one pooled connection per client
//                (naive: unsafe_skip_locks_for_tests_only and no unique index).
//   RunHttp      the same records over HTTP against a real `idres serve`.
//   RunPgbenchShape  pgbench with the engine's transaction shape.
//   CountWire    round trips and statements of one upsert, counted on the
//                wire (wire_counter.h) over `ops` sequential upserts.
// Thread-safety: each call is a blocking run of its own; run them one at a
// time (they share the machine, and measuring two at once measures neither).
#pragma once

#include <cstdint>
#include <string>

#include "bench/suite/context.h"
#include "bench/suite/results.h"

namespace idres::bench {

struct RunSpec {
  char scenario = 'a';
  int clients = 1;
  double seconds = 5;
  std::string template_db;  // preloaded with `preload` persons
  std::int64_t preload = 0;
  std::string label;  // database name suffix, for logs
};

RunResult RunEngine(const SuiteContext& ctx, const RunSpec& spec, bool naive);
RunResult RunHttp(const SuiteContext& ctx, const RunSpec& spec);
// Scenario 'a' uses kPgbenchNew; 'b' and 'c' kPgbenchUpdate over all
// preloaded persons ('b') or the first ten ('c').
RunResult RunPgbenchShape(const SuiteContext& ctx, const RunSpec& spec);

WireCount CountWire(const SuiteContext& ctx, const RunSpec& spec, std::int64_t ops);
WireCount CountPgbenchWire(const SuiteContext& ctx, const RunSpec& spec, int transactions);

}  // namespace idres::bench
