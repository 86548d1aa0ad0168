#include "bench/suite/suite.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "bench/suite/goals.h"
#include "bench/suite/import_runs.h"
#include "bench/suite/normalize_runs.h"
#include "bench/suite/pgbench_runs.h"
#include "bench/suite/preload_check.h"
#include "bench/suite/scenario_runs.h"

namespace idres::bench {
namespace {

std::string Describe(const RunResult& r) {
  return r.section + " " + r.scenario + " " + r.variant + " " + r.transport + " x" +
         std::to_string(r.clients) + " (" + std::to_string(r.preload) + " preloaded)";
}

}  // namespace

Suite::Suite(const SuiteOptions& options, const SuiteContext& ctx) : options_(options), ctx_(ctx) {}

bool Suite::Wants(char scenario) const {
  return options_.scenarios.find(scenario) != std::string::npos;
}

std::string Suite::MakeTemplate(std::int64_t persons) {
  const std::string name = ctx_.db_prefix + "_tmpl_" + std::to_string(persons);
  spdlog::info("preloading {} persons into {}", persons, name);
  const auto t0 = std::chrono::steady_clock::now();
  ctx_.cluster.CreateWithSchema(name);
  ctx_.cluster.Preload(name, persons);
  if (const auto problem = PreloadShapeProblem(ctx_.cluster, name)) {
    throw std::runtime_error("the preload is not in the engine's shape: " + *problem);
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  results_.notes.push_back("preload of " + std::to_string(persons) + " persons took " +
                           std::to_string(static_cast<int>(s)) + " s");
  return name;
}

void Suite::Check(const RunResult& r) {
  spdlog::info("{}: {:.0f} ops/s, p99 {:.2f} ms, errors {}, store {}", Describe(r), r.throughput,
               r.p99_ms, r.errors,
               !r.check.ran ? "-"
               : r.check.ok ? "ok"
                            : r.check.detail);
  if (r.check.ran && !r.check.ok && r.check_must_pass) {
    results_.failures.push_back(Describe(r) + ": wrong store: " + r.check.detail);
  }
}

std::optional<RunResult> Suite::Try(const Measurement& what) {
  try {
    RunResult r = what.run();
    r.section = what.section;
    Check(r);
    return r;
  } catch (const std::exception& e) {
    spdlog::error("{} could not run: {}", what.label, e.what());
    results_.failures.push_back(what.label + " could not run: " + e.what());
    return std::nullopt;
  }
}

void Suite::Measure(const Measurement& what) {
  if (auto r = Try(what)) results_.runs.push_back(std::move(*r));
}

void Suite::MeasureAll(const std::vector<Measurement>& all) {
  std::vector<std::vector<RunResult>> runs(all.size());
  std::vector<std::vector<double>> rounds(all.size(), std::vector<double>(options_.repeat, 0.0));
  for (int round = 0; round < options_.repeat; ++round) {
    // Each round starts with the next variant, so none always follows the
    // same neighbour (e.g. pgbench's 64 exiting backends).
    for (std::size_t k = 0; k < all.size(); ++k) {
      const std::size_t i = (k + static_cast<std::size_t>(round)) % all.size();
      if (auto r = Try(all[i])) {
        rounds[i][round] = r->throughput;
        runs[i].push_back(std::move(*r));
      }
    }
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    std::vector<RunResult>& of_one = runs[i];
    if (of_one.empty()) continue;
    std::sort(of_one.begin(), of_one.end(),
              [](const RunResult& a, const RunResult& b) { return a.throughput < b.throughput; });
    RunResult median = of_one[(of_one.size() - 1) / 2];
    if (of_one.size() > 1) {
      std::string note = "median of " + std::to_string(of_one.size()) + " runs:";
      for (const RunResult& r : of_one) note += " " + std::to_string(std::lround(r.throughput));
      median.note = median.note.empty() ? note : note + "; " + median.note;
      median.rounds = rounds[i];
    }
    results_.runs.push_back(std::move(median));
  }
}

void Suite::Scenarios(const std::string& base) {
  for (char s : std::string("abcd")) {
    if (!Wants(s)) continue;
    const std::string name(1, s);
    RunSpec spec{s, 1, options_.seconds, base, options_.preload, name};
    try {
      results_.wire.push_back(CountWire(ctx_, spec, options_.wire_ops));
    } catch (const std::exception& e) {
      results_.failures.push_back("wire count of " + name + " could not run: " + e.what());
    }
    RunSpec at_pool = spec;
    at_pool.clients = ctx_.pool_cap;
    for (int c : options_.clients) {
      spec.clients = c;
      const std::string label = "scenario " + name + " x" + std::to_string(c);
      std::vector<Measurement> all{
          {label + " in-process", [&] { return RunEngine(ctx_, spec, false); }}};
      if (options_.http) all.push_back({label + " http", [&] { return RunHttp(ctx_, spec); }});
      if (options_.grpc) {
        all.push_back({label + " grpc", [&] { return RunGrpc(ctx_, spec, false); }});
        // gRPC's callers share a channel (gRPC's performance guide); one
        // client has one connection either way.
        if (c > 1) {
          all.push_back({label + " grpc-1conn", [&] { return RunGrpc(ctx_, spec, true); }});
        }
      }
      // The same records with the locks off: what the locks cost, and the
      // duplicates (c) or broken merges (d) they prevent.
      if (options_.naive) {
        all.push_back({label + " naive", [&] { return RunEngine(ctx_, spec, true); }});
      }
      if (options_.pgbench_runs) {
        all.push_back({label + " pgbench", [&] { return RunPgbenchShape(ctx_, spec); }});
      }
      if (c == PgbenchAtPoolHost()) {
        all.push_back({"scenario " + name + " x" + std::to_string(at_pool.clients) +
                           " pgbench (idres's pool size)",
                       [&] { return RunPgbenchShape(ctx_, at_pool); }});
      }
      MeasureAll(all);
    }
    // (c) is (b)'s script on ten persons: its shape is counted with (b).
    if (options_.pgbench_runs && s != 'c') {
      try {
        results_.wire.push_back(CountPgbenchWire(ctx_, spec, static_cast<int>(options_.wire_ops)));
      } catch (const std::exception& e) {
        results_.failures.push_back("pgbench wire count of " + name + ": " + e.what());
      }
    }
  }
}

// pgbench with as many connections as idres's pool: with more, its backends
// compete for the cores (32 of them on 2 cores measured 3,786/s where 8 did
// 6,205/s), so the database's own limit is looked for there as well, in the
// rounds of goal 1's client count (else of the largest), so that a slow
// phase of the machine hits it and idres alike. 0 when it is not run.
int Suite::PgbenchAtPoolHost() const {
  const auto& clients = options_.clients;
  const int pool = ctx_.pool_cap;
  if (!options_.pgbench_runs || pool <= 0 || clients.empty() ||
      std::find(clients.begin(), clients.end(), pool) != clients.end()) {
    return 0;
  }
  if (std::find(clients.begin(), clients.end(), kGoalHttpClients) != clients.end()) {
    return kGoalHttpClients;
  }
  return *std::max_element(clients.begin(), clients.end());
}

void Suite::Scale(const std::string& base) {
  if (options_.large <= 0 || (!Wants('a') && !Wants('b'))) return;
  std::string large;
  try {
    large = MakeTemplate(options_.large);
  } catch (const std::exception& e) {
    results_.failures.push_back(std::string("large preload: ") + e.what());
    return;
  }
  for (char s : std::string("ab")) {
    if (!Wants(s)) continue;
    std::vector<Measurement> all;
    for (const auto& [tmpl, persons] :
         {std::pair{base, options_.preload}, std::pair{large, options_.large}}) {
      const RunSpec spec{s, options_.scale_clients, options_.seconds, tmpl, persons, "scale"};
      all.push_back({"scale " + std::string(1, s) + " at " + std::to_string(persons),
                     [this, spec] { return RunEngine(ctx_, spec, false); }, "scale"});
    }
    MeasureAll(all);
  }
  ctx_.cluster.Drop(large);
}

void Suite::Import() {
  if (!Wants('e')) return;
  const auto n = options_.import_records;
  Measure({"import COPY", [&] { return RunCopy(ctx_, n); }, "import"});
  for (int w : options_.import_workers) {
    Measure({"import in-process x" + std::to_string(w),
             [&] { return RunImportEngine(ctx_, n, w, options_.import_chunk, false); }, "import"});
  }
  if (options_.naive) {
    // BatchUpsert with the locks off: the same chunks, one transaction each.
    const int w = options_.import_workers.back();
    Measure({"import naive x" + std::to_string(w),
             [&] { return RunImportEngine(ctx_, n, w, options_.import_chunk, true); }, "import"});
  }
  if (options_.http) {
    const int w = options_.import_workers.back();
    Measure({"import http x" + std::to_string(w),
             [&] { return RunImportHttp(ctx_, n, w, options_.import_chunk); }, "import"});
  }
  if (options_.grpc) {
    const int w = options_.import_workers.back();
    Measure({"import grpc-stream x" + std::to_string(w),
             [&] { return RunImportStream(ctx_, n, w); }, "import"});
  }
  if (!options_.import_args.empty()) {
    Measure({"import cli", [&] { return RunImportCli(ctx_, n, options_.import_args); }, "import"});
  }
  if (options_.growth_records > 0) {
    // A large import into a fresh store: its last tenth against its first.
    const int w = options_.import_workers.back();
    Measure({"import growth x" + std::to_string(w),
             [&] {
               RunResult r = RunImportEngine(ctx_, options_.growth_records, w,
                                             options_.import_chunk, false, "growth");
               r.section = "growth";
               return r;
             },
             "growth"});
  }
}

void Suite::Normalization() {
  if (!Wants('f')) return;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int t : {1, cores}) {
    Measure({"normalization x" + std::to_string(t),
             [&] { return RunNormalization(t, std::min(options_.seconds, 5.0)); }, "normalize"});
    if (cores == 1) break;
  }
}

SuiteResults Suite::Run() {
  std::string base;
  try {
    base = MakeTemplate(options_.preload);
  } catch (const std::exception& e) {
    results_.failures.push_back(std::string("preload: ") + e.what());
    return results_;
  }
  Scenarios(base);
  Scale(base);
  ctx_.cluster.Drop(base);
  Import();
  Normalization();
  results_.goals = EvaluateGoals(results_.runs);
  return results_;
}

}  // namespace idres::bench
