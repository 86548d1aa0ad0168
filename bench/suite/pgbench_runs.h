// The pgbench side of scenarios (a)-(d): the scripts of pgbench_scripts.h
// against a clone of the run's template, followed by the store check.
//   RunPgbenchShape   (a) the new script; (b) and (c) the update script over
//                     all preloaded persons (b) or the first ten (c); (d) the
//                     mix: new 5, update (upper half of the preload) 4,
//                     bridge 1, as the workload's tenths.
//   CountPgbenchWire  round trips and statements per transaction of the same
//                     scripts, counted on the wire (wire_counter.h).
// Thread-safety: blocking runs of their own; run them one at a time.
#pragma once

#include "bench/suite/context.h"
#include "bench/suite/results.h"
#include "bench/suite/run_spec.h"

namespace idres::bench {

RunResult RunPgbenchShape(const SuiteContext& ctx, const RunSpec& spec);

WireCount CountPgbenchWire(const SuiteContext& ctx, const RunSpec& spec, int transactions);

}  // namespace idres::bench
