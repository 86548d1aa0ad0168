// The measurements of scenarios (a)-(d): each in a database of its own,
// cloned from a preloaded template, followed by the store check.
//   RunEngine    in-process: an Engine whose pool has one connection per
//                client, at most ctx.pool_cap (naive: EngineSeams::skip_locks and no unique index).
//   RunHttp      the same records as unary Upserts over Connect (HTTP/1.1)
//                against a real `idres serve`.
//   RunGrpc      the same over gRPC (HTTP/2), against the same server, a
//                connection per client ("grpc") or, with one_connection,
//                every client's calls on one ("grpc-1conn"), as one
//                service's callers share a channel.
//   CountWire    round trips and statements of one upsert, counted on the
//                wire (wire_counter.h) over `ops` sequential upserts.
// pgbench's side of the same scenarios is in pgbench_runs.h.
// Thread-safety: each call is a blocking run of its own; run them one at a
// time (they share the machine, and measuring two at once measures neither).
#pragma once

#include "bench/suite/context.h"
#include "bench/suite/results.h"
#include "bench/suite/run_spec.h"

namespace idres::bench {

RunResult RunEngine(const SuiteContext& ctx, const RunSpec& spec, bool naive);
RunResult RunHttp(const SuiteContext& ctx, const RunSpec& spec);
RunResult RunGrpc(const SuiteContext& ctx, const RunSpec& spec, bool one_connection);

WireCount CountWire(const SuiteContext& ctx, const RunSpec& spec, std::int64_t ops);

}  // namespace idres::bench
