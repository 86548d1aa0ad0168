// `idres import FILE...`: bulk-loads NDJSON or CSV records through the
// engine's batch upsert (or through a running service with --server), with
// parallel workers, a checkpoint to --resume from, a dead-letter file and a
// summary (batch/importer.h has the semantics).
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>

#include "app/commands.h"
#include "app/engine_flags.h"
#include "app/mapping_flags.h"
#include "batch/importer.h"
#include "batch/job_defaults.h"
#include "batch/rpc_sink.h"
#include "engine/engine.h"

namespace idres::app {
namespace {

struct ImportFlags {
  batch::ImportOptions options;
  MappingFlags mapping;
  std::string server;
  std::string report;
  std::string auth_token;
  EngineFlags engine;  // with --database-url; the service uses its own
  bool no_checkpoint = false;
};

std::optional<std::string> MakeMapping(ImportFlags& f) {
  try {
    return BuildMapping(f.mapping, BuildModel(f.engine.model_file), &f.options.mapping);
  } catch (const std::exception& e) {
    return e.what();
  }
}

int RunImportCommand(ImportFlags& f) {
  if (auto error = MakeMapping(f)) {
    spdlog::error("import: {}", *error);
    return 2;
  }
  if (f.no_checkpoint) f.options.checkpoint_path.clear();
  f.options.stop = &batch::StopOnInterrupt();
  std::unique_ptr<batch::UpsertSink> sink;
  std::unique_ptr<Engine> engine;
  if (!f.server.empty()) {
    sink = std::make_unique<batch::RpcSink>(f.server, f.auth_token);
  } else {
    EngineOptions eo;
    try {
      eo = f.engine.ToOptions(f.options.workers);
    } catch (const std::runtime_error& e) {
      spdlog::error("import: {}", e.what());
      return 2;
    }
    MigrateStore(eo.database_url, eo.model);
    engine = std::make_unique<Engine>(std::move(eo));
    sink = std::make_unique<batch::EngineSink>(*engine);
  }
  batch::ImportRun run = batch::RunImport(f.options, *sink);
  if (!run.before_any_write) {  // else there is nothing to sum up
    std::fputs(run.summary.ToText().c_str(), stdout);
    std::fflush(stdout);
    if (!f.report.empty()) std::ofstream(f.report) << run.summary.ToJson() << "\n";
  }
  if (run.error) {
    spdlog::error("import: {}", *run.error);
    if (run.before_any_write) return 2;
    return f.options.stop->load() ? 130 : 1;
  }
  return 0;
}

}  // namespace

void AddImportCommand(CLI::App& app) {
  auto flags = std::make_shared<ImportFlags>();
  batch::ImportOptions& o = flags->options;
  o.checkpoint_path = "idres-import.checkpoint";
  o.dead_letter_path = "idres-import.dead-letter.ndjson";
  flags->engine.database_url = batch::kEmbeddedDatabaseUrl;
  // A batch job can wait: batches of hundreds of records hold their keys
  // longer than one upsert, and a timeout only turns waiting into retries.
  flags->engine.lock_timeout_ms = 30000;
  auto* cmd = app.add_subcommand("import", "Bulk-load NDJSON or CSV records");
  cmd->add_option("files", o.inputs, "Input files (.csv: CSV with a header row; else NDJSON)")
      ->required()
      ->check(CLI::ExistingFile);
  AddMappingFlags(*cmd, flags->mapping, o.format, true);
  cmd->add_option("--region", o.default_region, "Region for phones of records naming none");
  cmd->add_option("--source", o.source, "Source of records naming none (default import:<file>)");
  cmd->add_option("--workers", o.workers, "Parallel connections")->capture_default_str();
  cmd->add_option("--batch", o.batch_size, "Records per batch upsert")->capture_default_str();
  cmd->add_option("--database-url", flags->engine.database_url, "PostgreSQL URL")
      ->envname("IDRES_DATABASE_URL")
      ->capture_default_str();
  cmd->add_option("--server", flags->server,
                  "Send batches to a running idres service (http://host:port) instead");
  cmd->add_option("--auth-token", flags->auth_token, "Bearer token for --server")
      ->envname("IDRES_AUTH_TOKEN");
  cmd->add_option("--lock-timeout-ms", flags->engine.lock_timeout_ms, "Engine lock timeout")
      ->capture_default_str();
  cmd->add_option("--max-traits", flags->engine.max_traits,
                  "Most traits per record (with --database-url)")
      ->capture_default_str();
  cmd->add_option("--max-person-traits", flags->engine.max_person_traits,
                  "Most traits a person may come to hold (with --database-url)")
      ->capture_default_str();
  AddModelFlag(*cmd, flags->engine.model_file);
  cmd->add_option("--checkpoint", o.checkpoint_path, "Checkpoint file")->capture_default_str();
  cmd->add_flag("--no-checkpoint", flags->no_checkpoint, "Write no checkpoint");
  cmd->add_flag("--resume", o.resume, "Continue after the checkpoint of an earlier run");
  cmd->add_option("--dead-letter", o.dead_letter_path, "Rejected records: input line + reason")
      ->capture_default_str();
  cmd->add_option("--report", flags->report, "Also write the summary as JSON to this file");
  cmd->add_option("--max-rate", o.max_rate, "Records per second at most (0: no cap)");
  AddProgressFlag(*cmd, o.progress);
  cmd->callback([flags] { SetExitCode(RunImportCommand(*flags)); });
}

}  // namespace idres::app
