// The steward's commands on records and persons (README.md, "Records,
// judgements and the change feed"), on the database through the engine's
// one path, under the upsert's locks: `idres delete-record` takes a
// record's contribution back; `idres forget` erases a person. Each prints
// what it did as one JSON line. Exit status 0 when done, 1 when there was
// nothing to delete or erase, 2 for bad flags.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/engine_flags.h"
#include "batch/job_defaults.h"
#include "engine/engine.h"

namespace idres::app {
namespace {

struct RecordFlags {
  EngineFlags engine;
  std::string source;
  std::string record_id;
  std::int64_t person_id = 0;
};

// The engine the command runs on, migrated and shaped for its model; null
// (with the reason logged) when the flags cannot make one.
std::unique_ptr<Engine> OpenEngine(const char* command, const EngineFlags& flags) {
  EngineOptions options;
  try {
    options = flags.ToOptions(1);
  } catch (const std::exception& e) {
    spdlog::error("{}: {}", command, e.what());
    return nullptr;
  }
  MigrateStore(options.database_url, options.model);
  return std::make_unique<Engine>(std::move(options));
}

void Print(const nlohmann::json& line) { std::printf("%s\n", line.dump().c_str()); }

int RunDeleteRecord(const RecordFlags& f) {
  auto engine = OpenEngine("delete-record", f.engine);
  if (!engine) return 2;
  std::optional<DeletedRecord> deleted;
  try {
    deleted = engine->DeleteRecord(f.source, f.record_id);
  } catch (const std::invalid_argument& e) {
    spdlog::error("delete-record: {}", e.what());
    return 2;
  }
  if (!deleted) {
    spdlog::error("delete-record: no record \"{}\" of source \"{}\" is stored", f.record_id,
                  f.source);
    return 1;
  }
  Print({{"personId", deleted->person_id},
         {"personRemoved", deleted->person_removed},
         {"splitPersonIds", deleted->split_person_ids}});
  return 0;
}

int RunForget(const RecordFlags& f) {
  auto engine = OpenEngine("forget", f.engine);
  if (!engine) return 2;
  const auto erased = engine->ForgetPerson(f.person_id);
  if (!erased) {
    spdlog::error("forget: no person {}", f.person_id);
    return 1;
  }
  Print({{"personId", erased->person_id}, {"erasedIds", erased->erased_ids}});
  return 0;
}

void AddDatabaseFlags(CLI::App& cmd, EngineFlags& engine) {
  engine.database_url = batch::kEmbeddedDatabaseUrl;
  cmd.add_option("--database-url", engine.database_url, "PostgreSQL URL")
      ->envname("IDRES_DATABASE_URL")
      ->capture_default_str();
  cmd.add_option("--lock-timeout-ms", engine.lock_timeout_ms, "Lock timeout")
      ->capture_default_str();
  AddModelFlag(cmd, engine.model_file);
}

}  // namespace

void AddRecordCommands(CLI::App& app) {
  auto del = std::make_shared<RecordFlags>();
  auto* d = app.add_subcommand("delete-record",
                               "Delete a record: its contribution leaves its person (which may split)");
  d->add_option("--source", del->source, "The record's source")->required();
  d->add_option("--record-id", del->record_id, "The record's id in its source")->required();
  AddDatabaseFlags(*d, del->engine);
  d->callback([del] { SetExitCode(RunDeleteRecord(*del)); });

  auto forget = std::make_shared<RecordFlags>();
  auto* f = app.add_subcommand("forget", "Erase a person and everything of it (GDPR Art. 17)");
  f->add_option("--person", forget->person_id, "The person's id (or an id merged into it)")
      ->required()
      ->check(CLI::PositiveNumber);
  AddDatabaseFlags(*f, forget->engine);
  f->callback([forget] { SetExitCode(RunForget(*forget)); });
}

}  // namespace idres::app
