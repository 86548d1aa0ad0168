// Scenario (e): importing generated records into an empty store, against
// COPY of the same rows (persons, identifiers, match keys, records, events,
// changes, receipts) as the floor a bulk load cannot beat. Each import run
// also reports its throughput by tenth of the records: a store that grows
// must not slow the import down.
//   RunImportEngine  Engine::BatchUpsert in chunks, `workers` in parallel
//                    (naive: EngineSeams::skip_locks and no unique
//                    index; its check is data only).
//   RunImportHttp    the BatchUpsert RPC of a real `idres serve`.
//   RunImportStream  its UpsertStream over gRPC: each worker one stream of
//                    its share of the records, answered as they are applied.
//   RunImportCli     `idres import` on a JSON-lines file, when
//                    SuiteContext::import_args is set.
//   RunCopy          COPY ... FROM STDIN of the rows the engine would write.
// Each checks the store afterwards: `records` persons, no duplicated value.
// Thread-safety: blocking runs; one at a time.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/suite/context.h"
#include "bench/suite/results.h"
#include "engine/record.h"

namespace idres::bench {

// Record i of the import (a new person: email, phone, name, birth date,
// postal code, two traits), for the benchmarks that send the same records
// another way (bench/consume_bench.cc).
Record ImportRecordAt(std::int64_t i);

// `name` tells the run's database apart (import, growth); with `naive` it
// is "naive".
RunResult RunImportEngine(const SuiteContext& ctx, std::int64_t records, int workers, int chunk,
                          bool naive, const std::string& name = "engine");
RunResult RunImportHttp(const SuiteContext& ctx, std::int64_t records, int workers, int chunk);
RunResult RunImportStream(const SuiteContext& ctx, std::int64_t records, int workers);
RunResult RunImportCli(const SuiteContext& ctx, std::int64_t records,
                       const std::vector<std::string>& import_args);
RunResult RunCopy(const SuiteContext& ctx, std::int64_t records);

}  // namespace idres::bench
