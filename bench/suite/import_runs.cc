#include "bench/suite/import_runs.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <pqxx/pqxx>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <fstream>
#include <nlohmann/json.hpp>
#include <span>
#include <thread>
#include <tuple>
#include <variant>

#include "base/mutex.h"
#include "bench/suite/load.h"
#include "bench/suite/scratch_database.h"
#include "bench/suite/serve_child.h"
#include "bench/suite/workload.h"
#include "client/client_requests.h"
#include "client/grpc_client.h"
#include "client/http_client.h"
#include "engine/engine.h"
#include "engine/testing.h"
#include "matcher/lock_plan.h"
#include "matcher/model.h"
#include "normalize/normalizer.h"
#include "process/child_process.h"

namespace idres::bench {
namespace {

using Clock = std::chrono::steady_clock;

// The receipts' job of every import run (each runs on a database of its
// own), and how often a chunk that answered an error is sent.
constexpr std::int64_t kImportJob = 1;
constexpr int kAttempts = 5;

// Record i of the import: a new person (email, phone, name, birth date,
// postal code, two traits), distinct from every other record and the preload.
Record ImportRecord(std::int64_t i) {
  Record r;
  r.identifiers = {
      {"email", "i" + std::to_string(i) + "@import.example.org"},
      {"phone", fmt::format("+1654{:07}", i % 10000000)},
      {"name", LetterName(i + (std::int64_t{1} << 40))},
      {"birth_date", fmt::format("19{:02}-{:02}-{:02}", 50 + i % 50, 1 + i % 12, 1 + i % 28)},
      {"postal_code", std::to_string(10000 + i % 90000)}};
  r.traits = {{"source", std::string("import")}, {"n", static_cast<double>(i)}};
  r.source = "bench-import";
  return r;
}

RunResult Finish(const SuiteContext& ctx, const std::string& db, RunResult r,
                 std::int64_t records) {
  r.scenario = "e";
  r.throughput = r.seconds > 0 ? static_cast<double>(r.ops) / r.seconds : 0;
  r.check = ctx.cluster.Check(db, records);
  return r;
}

// The throughput of each tenth of an import, from the moments its chunks
// were done and how many records each held.
std::vector<double> Tenths(std::vector<std::pair<double, std::int64_t>> done,
                           std::int64_t records) {
  std::sort(done.begin(), done.end());
  std::vector<double> out;
  double since = 0;
  std::int64_t counted = 0, tenth = 1;
  for (const auto& [at, n] : done) {
    counted += n;
    if (counted * 10 < tenth * records) continue;
    out.push_back(at > since ? static_cast<double>(records) / 10 / (at - since) : 0);
    since = at;
    ++tenth;
  }
  return out;
}

// `records` records (ImportRecord 0..records-1, made as they are sent) in
// chunks of `chunk`, handed to `workers` threads; `send` imports one chunk
// (`first`: the number of its first record) and returns how many of its
// records failed. Latencies are per chunk; each chunk's moment of
// completion goes into the result's tenths.
using SendChunk = std::function<int(int worker, std::int64_t first, std::span<const Record>)>;
RunResult Chunked(std::int64_t records, int workers, int chunk, const SendChunk& send) {
  const std::int64_t chunks = (records + chunk - 1) / chunk;
  LoadOptions load;
  load.clients = workers;
  load.duration = std::chrono::hours(24);
  load.max_ops = chunks;
  std::atomic<std::int64_t> failed{0};
  Mutex mu;
  std::vector<std::pair<double, std::int64_t>> done;
  const auto t0 = Clock::now();
  LoadResult result = RunClosedLoop(load, [&](int worker, std::int64_t seq) {
    const std::int64_t begin = seq * chunk, end = std::min(records, begin + chunk);
    std::vector<Record> part;
    part.reserve(static_cast<std::size_t>(end - begin));
    for (std::int64_t i = begin; i < end; ++i) part.push_back(ImportRecord(i));
    const int bad = send(worker, begin, part);
    {
      MutexLock lock(&mu);
      done.emplace_back(std::chrono::duration<double>(Clock::now() - t0).count(), end - begin);
    }
    if (bad == 0) return OpOutcome{};
    failed += bad;
    return OpOutcome{false, std::to_string(bad) + " record(s) of a chunk failed"};
  });
  RunResult r;
  r.clients = workers;
  SetFromLoad(r, result, records - failed, failed);
  r.tenths = Tenths(std::move(done), records);
  return r;
}

std::string TraitsJson(const Traits& traits) {
  nlohmann::json j = nlohmann::json::object();
  // Not a structured binding: clang 14 cannot capture one in the lambda.
  for (const auto& trait : traits) {
    std::visit([&](const auto& x) { j[trait.first] = x; }, trait.second);
  }
  return j.dump();
}

}  // namespace

RunResult RunImportEngine(const SuiteContext& ctx, std::int64_t records, int workers, int chunk,
                          bool naive, const std::string& name) {
  ScratchDatabase db(
      ctx.cluster, ctx.db_prefix + "_import_" + (naive ? "naive" : name) + std::to_string(workers));
  if (naive) ctx.cluster.DropUniqueIndex(db.name());
  RunResult r;
  {
    EngineOptions options;
    options.model = ctx.model;
    options.database_url = db.url();
    options.pool_size = workers;
    EngineSeams seams;
    seams.skip_locks = naive;
    const auto owned = EngineTesting::Make(std::move(options), std::move(seams));
    Engine& engine = *owned;
    r = Chunked(records, workers, chunk,
                [&](int, std::int64_t first, std::span<const Record> part) {
                  // As idres import does (batch/importer.cc): a chunk that met a busy
                  // key (a lock_timeout behind the other workers' chunks on a loaded
                  // machine) is sent again with its receipts, a few times; a record
                  // committed by an attempt that answered an error is not applied twice.
                  BatchReceipt receipt{kImportJob, {}};
                  for (std::size_t i = 0; i < part.size(); ++i) receipt.items.push_back(first + i);
                  for (int attempt = 1;; ++attempt) {
                    try {
                      int bad = 0;
                      for (const auto& result : engine.BatchUpsert(part, receipt))
                        bad += result.ok() ? 0 : 1;
                      return bad;
                    } catch (const EngineError& e) {
                      if (!e.retryable() || attempt >= kAttempts) throw;
                    }
                  }
                });
  }
  r.variant = naive ? "naive" : "idres";
  r.transport = "in-process";
  r.note = "BatchUpsert, " + std::to_string(chunk) + " records per call" +
           (naive ? "; locks off, unique index dropped" : "");
  r = Finish(ctx, db.name(), r, records);
  r.check_must_pass = !naive;
  return r;
}

RunResult RunImportHttp(const SuiteContext& ctx, std::int64_t records, int workers, int chunk) {
  ScratchDatabase db(ctx.cluster, ctx.db_prefix + "_import_" + "http" + std::to_string(workers));
  RunResult r;
  {
    ServeChild serve(ctx, db.url(), workers);
    std::deque<client::HttpClient> conns;  // not movable: a deque keeps them in place
    for (int w = 0; w < workers; ++w) conns.emplace_back(serve.port());
    r = Chunked(records, workers, chunk,
                [&](int w, std::int64_t first, std::span<const Record> part) {
                  std::vector<std::string> jsons;
                  for (const Record& record : part)
                    jsons.push_back(client::RecordJson(record).value_or("{}"));
                  BatchReceipt receipt{kImportJob, {}};
                  for (std::size_t i = 0; i < part.size(); ++i) receipt.items.push_back(first + i);
                  const std::string body = client::BatchRequestJson(jsons, &receipt);
                  // A chunk that answered an error (a busy key, its deadline) is sent
                  // again with its receipts, as idres import --server does.
                  for (int attempt = 1;; ++attempt) {
                    const client::HttpResponse resp = conns[w].Call("BatchUpsert", body);
                    const auto parsed = client::ParseBatchResponse(resp.body);
                    const auto* results = std::get_if<std::vector<UpsertResult>>(&parsed);
                    if (resp.status == 200 && results != nullptr) {
                      return static_cast<int>(std::count_if(results->begin(), results->end(),
                                                            [](const auto& x) { return !x.ok(); }));
                    }
                    if (attempt >= kAttempts) return static_cast<int>(part.size());
                  }
                });
    conns.clear();
    serve.Stop();
  }
  r.variant = "idres";
  r.transport = "http";
  r.note = "BatchUpsert RPC, " + std::to_string(chunk) + " records per call";
  return Finish(ctx, db.name(), r, records);
}

// Streams `part` (records first, first + 1, ... of the import) with its
// receipts; a stream cut by a busy key (a lock timeout behind the other
// workers on a loaded machine) is sent again from its first unanswered
// record, a few times, as the other runs send a chunk again with its
// receipts: a record committed before the cut is not applied twice.
void StreamWithRetries(const std::string& target, std::int64_t first, std::span<const Record> part,
                       std::vector<UpsertResult>& answered) {
  client::GrpcClient channel(target);
  for (int attempt = 1;; ++attempt) {
    try {
      const std::size_t done = answered.size();
      channel.UpsertStream(part.subspan(done), kImportJob, first + static_cast<std::int64_t>(done),
                           answered);
      return;
    } catch (const UnavailableError&) {
      if (attempt >= kAttempts) throw;
    }
  }
}

RunResult RunImportStream(const SuiteContext& ctx, std::int64_t records, int workers) {
  ScratchDatabase db(ctx.cluster, ctx.db_prefix + "_import_stream" + std::to_string(workers));
  std::atomic<std::int64_t> failed{0};
  std::string first_error;
  Mutex error_mu;
  double seconds = 0;
  {
    ServeChild serve(ctx, db.url(), workers);
    const std::int64_t share = (records + workers - 1) / workers;
    const auto t0 = Clock::now();
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w) {
      const std::int64_t begin = std::min(records, w * share);
      const std::int64_t end = std::min(records, begin + share);
      threads.emplace_back([&, begin, end] {
        // The worker's share, made as it is sent (as Chunked makes its chunks).
        std::vector<Record> part;
        part.reserve(static_cast<std::size_t>(end - begin));
        for (std::int64_t i = begin; i < end; ++i) part.push_back(ImportRecord(i));
        std::vector<UpsertResult> answered;
        try {
          StreamWithRetries(serve.grpc_target(), begin, part, answered);
        } catch (const std::exception& e) {
          MutexLock lock(&error_mu);
          first_error = e.what();
        }
        failed += static_cast<std::int64_t>(part.size() - answered.size());
        for (const auto& result : answered) failed += result.ok() ? 0 : 1;
      });
    }
    for (auto& t : threads) t.join();
    seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    serve.Stop();
  }
  RunResult r;
  r.seconds = seconds;
  r.variant = "idres";
  r.transport = "grpc-stream";
  r.clients = workers;
  r.ops = records - failed;
  r.errors = failed;
  r.first_error = first_error;
  r.note = "UpsertStream over gRPC, one stream per worker";
  return Finish(ctx, db.name(), r, records);
}

RunResult RunImportCli(const SuiteContext& ctx, std::int64_t records,
                       const std::vector<std::string>& import_args) {
  const std::string file = ctx.work_dir + "/import.jsonl";
  {
    std::ofstream out(file);
    for (std::int64_t i = 0; i < records; ++i) {
      out << client::RecordJson(ImportRecord(i)).value_or("{}") << '\n';
    }
  }
  ScratchDatabase db(ctx.cluster, ctx.db_prefix + "_import_" + "cli");
  std::vector<std::string> argv = Expand(import_args, "", db.url(), "", file);
  argv.insert(argv.begin(), ctx.idres_binary);
  const auto t0 = Clock::now();
  const int status = RunToEnd(argv, ctx.work_dir + "/import.log");
  RunResult r;
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.variant = "idres";
  r.transport = "cli";
  r.clients = 1;
  r.ops = status == 0 ? records : 0;
  r.errors = status == 0 ? 0 : records;
  if (status != 0) r.first_error = "idres import exited with " + std::to_string(status);
  r.note = "idres import, file of JSON lines";
  return Finish(ctx, db.name(), r, records);
}

namespace {

// A text[] literal of `items`, each quoted (values hold spaces and commas).
std::string ArrayLiteral(const std::vector<std::string>& items) {
  std::string out = "{";
  for (const std::string& item : items) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (char c : item) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

// The rows an import of `records` records writes, made before COPY's clock
// starts. Tuples: libpqxx 6.4's stream_to takes rows as tuples.
struct CopyRows {
  std::vector<std::tuple<std::string, std::string>> persons, match_keys, changes, receipts;
  std::vector<std::tuple<std::string, std::string, std::string, std::string>> identifiers, events;
  std::vector<
      std::tuple<std::string, std::string, std::string, std::string, std::string, std::string>>
      records;
};

CopyRows RowsOfImport(std::int64_t records) {
  const Normalizer normalizer(Model::Defaults().Normalizing());
  const Model model = Model::Defaults();
  const LockPlanner planner(model);
  CopyRows rows;
  for (std::int64_t i = 0; i < records; ++i) {
    const Record rec = ImportRecord(i);
    const std::string id = std::to_string(i + 1), record_id = fmt::format("g-{:032x}", i);
    const std::string traits = TraitsJson(rec.traits);
    rows.persons.emplace_back(id, traits);
    std::vector<Identifier> ids;
    for (const auto& raw : rec.identifiers) {
      const auto n = normalizer.Normalize(raw.type, raw.value);
      if (const auto* v = std::get_if<Identifier>(&n)) ids.push_back(*v);
    }
    std::sort(ids.begin(), ids.end());
    std::vector<std::string> types, values;
    for (const auto& v : ids) {
      rows.identifiers.emplace_back(id, v.type, v.value, model.Exclusive(v.type) ? "t" : "f");
      types.push_back(v.type);
      values.push_back(v.value);
    }
    bool truncated = false;
    for (std::int64_t key : planner.MatchKeys(ids, model.max_keys, &truncated)) {
      rows.match_keys.emplace_back(std::to_string(key), id);
    }
    rows.records.emplace_back(rec.source, record_id, id, ArrayLiteral(types), ArrayLiteral(values),
                              traits);
    rows.events.emplace_back(id, "record_added", rec.source, record_id);
    rows.changes.emplace_back(id, "created");
    rows.receipts.emplace_back(std::to_string(kImportJob), std::to_string(i));
  }
  return rows;
}

}  // namespace

RunResult RunCopy(const SuiteContext& ctx, std::int64_t records) {
  const CopyRows rows = RowsOfImport(records);
  ScratchDatabase db(ctx.cluster, ctx.db_prefix + "_import_" + "copy");
  pqxx::connection conn(db.url());
  const auto t0 = Clock::now();
  {
    pqxx::work tx(conn);
    const auto copy = [&](const std::string& table, const std::vector<std::string>& columns,
                          const auto& of) {
      pqxx::stream_to stream(tx, table, columns);
      for (const auto& row : of) stream << row;
      stream.complete();
    };
    copy("persons", {"id", "traits"}, rows.persons);
    copy("identifiers", {"person_id", "type", "value", "is_unique"}, rows.identifiers);
    copy("match_keys", {"key", "person_id"}, rows.match_keys);
    copy("records", {"source", "record_id", "person_id", "types", "vals", "traits"}, rows.records);
    copy("person_events", {"person_id", "kind", "source", "record_id"}, rows.events);
    copy("changes", {"person_id", "kind"}, rows.changes);
    copy("import_receipts", {"job", "item"}, rows.receipts);
    tx.exec("SELECT setval(pg_get_serial_sequence('persons', 'id'), " + std::to_string(records) +
            ")");
    tx.commit();
  }
  RunResult r;
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.variant = "copy";
  r.transport = "sql";
  r.clients = 1;
  r.ops = records;
  r.note =
      "COPY of the same rows: persons, identifiers, match keys, records, events, changes, "
      "receipts";
  return Finish(ctx, db.name(), r, records);
}

Record ImportRecordAt(std::int64_t i) { return ImportRecord(i); }

}  // namespace idres::bench
