// `idres reconcile`: merges persons that should be one, under the upsert's
// locks, after re-normalizing stored identifiers with today's rules
// (Engine::FindReconcileGroups / Engine::Reconcile, batch/reconcile_job.h).
// --dry-run only finds the groups and writes nothing.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <memory>

#include "app/commands.h"
#include "app/engine_flags.h"
#include "batch/job_defaults.h"
#include "batch/reconcile_job.h"
#include "engine/engine.h"

namespace idres::app {
namespace {

struct ReconcileFlags {
  EngineFlags engine;
  std::string region;
  bool dry_run = false;
  std::string report;
  batch::ProgressMode progress = batch::ProgressMode::kAuto;
};

int RunReconcileCommand(const ReconcileFlags& f) {
  auto engine = OpenEngine("reconcile", f.engine);
  if (!engine) return 2;
  const std::atomic<bool>& stop = batch::StopOnInterrupt();
  batch::ReconcileRun run = batch::RunReconcile(
      *engine, f.region, f.dry_run, f.progress,
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
  flags->engine.database_url = batch::kEmbeddedDatabaseUrl;
  auto* cmd = app.add_subcommand(
      "reconcile", "Merge persons that should be one (re-normalized identifiers, matches)");
  cmd->add_option("--database-url", flags->engine.database_url, "PostgreSQL URL")
      ->envname("IDRES_DATABASE_URL")
      ->capture_default_str();
  cmd->add_option("--region", flags->region,
                  "Region for stored phones without a country code (default: the engine's, US)");
  cmd->add_flag("--dry-run", flags->dry_run, "Print what would be merged and why; write nothing");
  cmd->add_option("--report", flags->report, "Also write the summary as JSON to this file");
  cmd->add_option("--lock-timeout-ms", flags->engine.lock_timeout_ms, "Lock timeout")
      ->capture_default_str();
  AddProgressFlag(*cmd, flags->progress);
  AddModelFlag(*cmd, flags->engine.model_file);
  cmd->callback([flags] { SetExitCode(RunReconcileCommand(*flags)); });
}

}  // namespace idres::app
