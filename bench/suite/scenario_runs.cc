#include "bench/suite/scenario_runs.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>

#include "bench/suite/counting_observer.h"
#include "bench/suite/load.h"
#include "bench/suite/metrics_page.h"
#include "bench/suite/serve_child.h"
#include "bench/suite/wire_counter.h"
#include "bench/suite/workload.h"
#include "client/client_requests.h"
#include "client/grpc_upserts.h"
#include "client/http_client.h"
#include "engine/engine.h"
#include "engine/testing.h"

namespace idres::bench {
namespace {

void FillXacts(RunResult& r, const XactCounts& before, const XactCounts& after) {
  if (r.ops == 0) return;
  r.commits_per_op =
      static_cast<double>(after.commits - before.commits) / static_cast<double>(r.ops);
  r.rollbacks_per_op =
      static_cast<double>(after.rollbacks - before.rollbacks) / static_cast<double>(r.ops);
}

// The closed loop of one scenario over `upsert`, counting successes by kind,
// into `r`.
void Drive(RunResult& r, const RunSpec& spec, const Workload& workload, Tally& tally,
           const std::function<OpOutcome(int, const PlannedOp&)>& upsert) {
  LoadOptions options;
  options.clients = spec.clients;
  options.duration = std::chrono::duration<double>(spec.seconds);
  LoadResult load = RunClosedLoop(options, [&](int client, std::int64_t seq) {
    const PlannedOp op = workload.Next(seq);
    OpOutcome outcome = upsert(client, op);
    if (outcome.ok) tally.Count(op);
    return outcome;
  });
  r.scenario = std::string(1, spec.scenario);
  r.clients = spec.clients;
  r.preload = spec.preload;
  SetFromLoad(r, load, load.ok, load.errors);
}

// Drive over gRPC: every client's calls from this one thread, through
// client::GrpcUpserts (nghttp2), each client on a connection of its own or
// all on `connections` shared: what the generator spends per call is taken
// from the server on the core they share (BENCHMARKS.md, "gRPC's load
// generator on nghttp2").
void DriveGrpc(RunResult& r, const RunSpec& spec, const Workload& workload, Tally& tally,
               const std::string& target, int connections) {
  client::GrpcUpserts calls(target, spec.clients, {}, connections);
  std::vector<PlannedOp> current(static_cast<std::size_t>(spec.clients));
  LoadOptions options;
  options.clients = spec.clients;
  options.duration = std::chrono::duration<double>(spec.seconds);
  LoadResult load = RunAsyncLoop(
      options,
      [&](int client, std::int64_t seq) {
        current[client] = workload.Next(seq);
        calls.Start(client, current[client].record);
      },
      [&] {
        client::GrpcUpserts::Answer answer = calls.Next();
        if (answer.error.empty()) {
          tally.Count(current[answer.slot]);
          return std::pair<int, OpOutcome>{answer.slot, OpOutcome{}};
        }
        return std::pair<int, OpOutcome>{answer.slot, OpOutcome{false, "gRPC: " + answer.error}};
      });
  r.scenario = std::string(1, spec.scenario);
  r.clients = spec.clients;
  r.preload = spec.preload;
  SetFromLoad(r, load, load.ok, load.errors);
}

// The served process's counts of the run (from /metrics) into `r`.
void FillServed(RunResult& r, const ServedCounts& served) {
  if (r.ops > 0) {
    r.lock_wait_ms_per_op = served.lock_wait_seconds * 1000.0 / static_cast<double>(r.ops);
  }
  r.retries = served.retries;
  r.created = served.created;
  r.merged = served.merged;
}

}  // namespace

RunResult RunEngine(const SuiteContext& ctx, const RunSpec& spec, bool naive) {
  ScratchDatabase db = RunDatabase(ctx, spec, naive ? "naive" : "engine");
  if (naive) ctx.cluster.DropUniqueIndex(db.name());
  const Workload workload(spec.scenario, spec.preload);
  Tally tally;
  auto observer = std::make_shared<CountingObserver>();
  RunResult r;
  r.variant = naive ? "naive" : "idres";
  r.transport = "in-process";
  const int pool = PoolFor(ctx, spec.clients);
  const XactCounts before = ctx.cluster.Xacts(db.name());
  {
    EngineOptions options;
    options.model = ctx.model;
    options.database_url = db.url();
    options.pool_size = pool;
    options.observer = observer;
    EngineSeams seams;
    seams.skip_locks = naive;
    const auto owned = EngineTesting::Make(std::move(options), std::move(seams));
    Engine& engine = *owned;
    Drive(r, spec, workload, tally, [&](int, const PlannedOp& op) {
      const UpsertResult result = engine.Upsert(op.record);
      return result.ok() ? OpOutcome{} : OpOutcome{false, *result.error};
    });
  }
  FillXacts(r, before, ctx.cluster.Xacts(db.name()));
  if (r.ops > 0) {
    r.lock_wait_ms_per_op = observer->lock_wait_seconds() * 1000.0 / static_cast<double>(r.ops);
    r.lock_wait_ms_max = observer->max_lock_wait_seconds() * 1000.0;
  }
  r.retries = observer->retries();
  const OutcomeCounts outcomes = observer->outcomes();
  r.created = outcomes.created;
  r.merged = outcomes.merged;
  r.expected_created = workload.ExpectedCreations(tally);
  r.check = ctx.cluster.Check(db.name(), workload.ExpectedPersons(tally));
  r.check_must_pass = !naive;
  r.note = "pool of " + std::to_string(pool);
  if (naive) r.note += "; locks off, unique index dropped";
  return r;
}

namespace {

// One client's unary Upsert of `record` over Connect, in binary protobuf,
// as a high-volume client sends it (errors come as JSON).
OpOutcome ConnectUpsert(client::HttpClient& connection, const Record& record) {
  const client::HttpResponse resp =
      connection.Call("Upsert", client::UpsertRequestProto(record), {}, client::kProtoContentType);
  if (resp.status == 200) return OpOutcome{};
  return OpOutcome{false, "HTTP " + std::to_string(resp.status) + ": " + resp.body};
}

// The scenario's records as unary Upserts to a real `idres serve` over
// `transport`: "http" (Connect) and "grpc" with a connection per client,
// "grpc-1conn" with every client's calls on one HTTP/2 connection.
RunResult RunServed(const SuiteContext& ctx, const RunSpec& spec, const std::string& transport) {
  const bool grpc = transport.starts_with("grpc");
  ScratchDatabase db = RunDatabase(ctx, spec, transport);
  const Workload workload(spec.scenario, spec.preload);
  Tally tally;
  RunResult r;
  r.variant = "idres";
  r.transport = transport;
  const XactCounts before = ctx.cluster.Xacts(db.name());
  {
    const int pool = PoolFor(ctx, spec.clients);
    r.note = "served over a pool of " + std::to_string(pool);
    ServeChild serve(ctx, db.url(), pool);
    std::deque<client::HttpClient> conns;  // not movable: a deque keeps them in place
    if (!grpc) {
      for (int c = 0; c < spec.clients; ++c) conns.emplace_back(serve.port());
    }
    // The served process's own counters, before and after the load.
    std::optional<ServedCounts> before_counts;
    try {
      before_counts = ScrapeServedCounts(serve.port());
    } catch (const std::exception& e) {
      r.note = std::string("no /metrics: ") + e.what();
    }
    if (grpc) {
      DriveGrpc(r, spec, workload, tally, serve.grpc_target(),
                transport == "grpc-1conn" ? 1 : spec.clients);
    } else {
      Drive(r, spec, workload, tally, [&](int client, const PlannedOp& op) {
        return ConnectUpsert(conns[client], op.record);
      });
    }
    if (before_counts) {
      try {
        FillServed(r, Difference(ScrapeServedCounts(serve.port()), *before_counts));
      } catch (const std::exception& e) {
        r.note = std::string("no /metrics after the run: ") + e.what();
      }
    }
    conns.clear();
    serve.Stop();
  }
  FillXacts(r, before, ctx.cluster.Xacts(db.name()));
  if (r.created) r.expected_created = workload.ExpectedCreations(tally);
  r.check = ctx.cluster.Check(db.name(), workload.ExpectedPersons(tally));
  return r;
}

}  // namespace

RunResult RunHttp(const SuiteContext& ctx, const RunSpec& spec) {
  return RunServed(ctx, spec, "http");
}

RunResult RunGrpc(const SuiteContext& ctx, const RunSpec& spec, bool one_connection) {
  return RunServed(ctx, spec, one_connection ? "grpc-1conn" : "grpc");
}

WireCount CountWire(const SuiteContext& ctx, const RunSpec& spec, std::int64_t ops) {
  ScratchDatabase db = RunDatabase(ctx, spec, "wire");
  WireCounter counter(HostPortOf(db.url()));
  EngineOptions options;
  options.database_url = ThroughProxy(db.url(), counter.address());
  options.pool_size = 1;
  Engine engine(std::move(options));
  const Workload workload(spec.scenario, spec.preload);
  // Connections are open and statements prepared: count from here.
  const WireTotals before = counter.Totals();
  for (std::int64_t seq = 0; seq < ops; ++seq) engine.Upsert(workload.Next(seq).record);
  return PerOp(std::string(1, spec.scenario) + " idres", counter.Totals() - before, ops);
}

}  // namespace idres::bench
