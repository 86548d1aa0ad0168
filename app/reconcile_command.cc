// `idres reconcile`: merges persons that should be one, under the upsert's
// locks, after re-normalizing stored identifiers with today's rules
// (Engine::FindReconcileGroups / Engine::Reconcile, batch/reconcile_job.h).
// --dry-run only finds the groups and writes nothing.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>

#include "app/commands.h"
#include "app/match_flags.h"
#include "batch/job_defaults.h"
#include "batch/reconcile_job.h"
#include "engine/engine.h"

namespace idres::app {
namespace {

struct ReconcileFlags {
  std::string database_url = batch::kEmbeddedDatabaseUrl;
  std::string region;
  bool dry_run = false;
  std::string report;
  int lock_timeout_ms = 2000;
  batch::ProgressMode progress = batch::ProgressMode::kAuto;
  MatchFlags match;
};

int RunReconcileCommand(const ReconcileFlags& f) {
  Model match;
  try {
    match = BuildModel(f.match);
  } catch (const std::exception& e) {
    spdlog::error("reconcile: {}", e.what());
    return 2;
  }
  MigrateStore(f.database_url, match);
  EngineOptions options;
  options.database_url = f.database_url;
  options.pool_size = 1;
  options.lock_timeout = std::chrono::milliseconds(f.lock_timeout_ms);
  options.model = std::move(match);
  Engine engine(std::move(options));
  const std::atomic<bool>& stop = batch::StopOnInterrupt();
  batch::ReconcileRun run = batch::RunReconcile(
      engine, f.region, f.dry_run, f.progress,
      [](const std::string& line) { std::printf("%s\n", line.c_str()); }, &stop);
  std::fputs(run.summary.ToText().c_str(), stdout);
  std::fflush(stdout);
  if (!f.report.empty()) std::ofstream(f.report) << run.summary.ToJson() << "\n";
  if (run.error) {
    spdlog::error("reconcile: {}", *run.error);
    return run.interrupted ? 130 : 1;
  }
  return 0;
}

}  // namespace

void AddReconcileCommand(CLI::App& app) {
  auto flags = std::make_shared<ReconcileFlags>();
  auto* cmd = app.add_subcommand(
      "reconcile", "Merge persons that should be one (re-normalized identifiers, matches)");
  cmd->add_option("--database-url", flags->database_url, "PostgreSQL URL")
      ->envname("IDRES_DATABASE_URL")
      ->capture_default_str();
  cmd->add_option("--region", flags->region,
                  "Region for stored phones without a country code (default: the engine's, US)");
  cmd->add_flag("--dry-run", flags->dry_run, "Print what would be merged and why; write nothing");
  cmd->add_option("--report", flags->report, "Also write the summary as JSON to this file");
  cmd->add_option("--lock-timeout-ms", flags->lock_timeout_ms, "Lock timeout")
      ->capture_default_str();
  std::map<std::string, batch::ProgressMode> modes{{"auto", batch::ProgressMode::kAuto},
                                                   {"bar", batch::ProgressMode::kBar},
                                                   {"plain", batch::ProgressMode::kPlain},
                                                   {"off", batch::ProgressMode::kOff}};
  cmd->add_option("--progress", flags->progress, "auto (bar on a terminal), bar, plain or off")
      ->transform(CLI::CheckedTransformer(modes, CLI::ignore_case));
  AddMatchFlags(*cmd, flags->match);
  cmd->callback([flags] { SetExitCode(RunReconcileCommand(*flags)); });
}

}  // namespace idres::app
