#include "bench/suite/pgbench_runs.h"

#include "bench/suite/pgbench.h"
#include "bench/suite/pgbench_scripts.h"
#include "bench/suite/wire_counter.h"

namespace idres::bench {
namespace {

// Scripts and variables of `spec`'s scenario, against `url`.
PgbenchOptions ShapeOptions(const SuiteContext& ctx, const RunSpec& spec, const std::string& url) {
  PgbenchOptions o;
  o.pgbench = ctx.pgbench;
  o.url = url;
  o.work_dir = ctx.work_dir + "/pgbench";
  o.variables["first"] = "1";
  o.variables["persons"] = spec.scenario == 'c' ? "10" : std::to_string(spec.preload);
  switch (spec.scenario) {
    case 'a':
      o.scripts = {{"new", PgbenchNewScript(), 1}};
      break;
    case 'd': {
      // As Workload: updates on the upper half, bridges in the lower half.
      const std::int64_t half = spec.preload / 2;
      o.scripts = {{"new", PgbenchNewScript(), 5},
                   {"update", PgbenchUpdateScript(), 4},
                   {"bridge", PgbenchBridgeScript(), 1}};
      o.variables["first"] = std::to_string(half + 1);
      o.variables["half"] = std::to_string(half);
      o.variables["round"] = "0";
      o.variables["nclients"] = std::to_string(spec.clients);
      break;
    }
    default:
      o.scripts = {{"update", PgbenchUpdateScript(), 1}};
  }
  return o;
}

}  // namespace

RunResult RunPgbenchShape(const SuiteContext& ctx, const RunSpec& spec) {
  ScratchDatabase db = RunDatabase(ctx, spec, "pgbench");
  PgbenchOptions o = ShapeOptions(ctx, spec, db.url());
  o.clients = spec.clients;
  o.seconds = spec.seconds;
  RunResult r = RunPgbench(o);
  r.scenario = std::string(1, spec.scenario);
  r.preload = spec.preload;
  // pgbench's own rows: every new-person transaction must have added one
  // person, every bridge (one merges row each) taken one away.
  std::int64_t expected = spec.preload + (spec.scenario == 'a' ? r.ops : 0);
  if (spec.scenario == 'c') r.note = "update shape on 10 preloaded persons";
  if (spec.scenario == 'd') {
    const std::int64_t bridged =
        std::stoll(ctx.cluster.Scalar(db.name(), "SELECT count(*) FROM merges"));
    // Persons the new-person script created, counted in the store by their
    // email domain (PgbenchNewScript): pgbench's per-script counter once
    // came out one short of what it committed (8 clients, 2026-11-30).
    const std::int64_t created =
        std::stoll(ctx.cluster.Scalar(db.name(),
                                      "SELECT count(*) FROM identifiers WHERE type = 'email'"
                                      " AND value LIKE '%@pgbench.example.org'"));
    expected = spec.preload + created - bridged;
    r.created = created;
    r.merged = bridged;
    r.note = "mix: new 5, update 4, bridge 1 (pgbench -f script@weight)";
  }
  r.check = ctx.cluster.Check(db.name(), expected);
  return r;
}

WireCount CountPgbenchWire(const SuiteContext& ctx, const RunSpec& spec, int transactions) {
  ScratchDatabase db = RunDatabase(ctx, spec, "wirepgb");
  WireCounter counter(HostPortOf(db.url()));
  PgbenchOptions o = ShapeOptions(ctx, spec, ThroughProxy(db.url(), counter.address()));
  o.transactions = transactions;
  const RunResult r = RunPgbench(o);
  // pgbench's first transaction also prepares each statement (one Parse +
  // Sync each): spread over `transactions`, it is noise.
  return PerOp(std::string(1, spec.scenario) + " pgbench", counter.Totals(), r.ops);
}

}  // namespace idres::bench
