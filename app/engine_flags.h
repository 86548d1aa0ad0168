// The options shared by the commands that decide through the engine (serve,
// import, reconcile, model), each registered by its command where its help
// lists it. `idres import` (direct) and `idres reconcile` must match — and
// so lock — exactly as the running service does, or a record that the
// service would merge becomes a second person in a batch run: give them the
// same --model file.
#pragma once

#include <memory>
#include <string>

#include "batch/progress.h"
#include "engine/engine.h"
#include "matcher/model.h"

namespace CLI {
class App;
}

namespace idres::app {

struct EngineFlags {
  std::string database_url;
  int lock_timeout_ms = 2000;
  std::size_t max_identifiers = EngineOptions{}.max_identifiers;
  std::size_t max_traits = EngineOptions{}.max_traits;
  std::size_t max_person_traits = EngineOptions{}.max_person_traits;
  std::string model_file;  // empty: the built-in model

  // EngineOptions with these and `pool_size` connections. Throws
  // std::runtime_error saying what is wrong with the model file or the
  // lock timeout.
  EngineOptions ToOptions(int pool_size) const;
};

// Registers --database-url (IDRES_DATABASE_URL; the embedded cluster's by
// default), --lock-timeout-ms and --model, for the commands that run on the
// database one call at a time (the steward's, explain).
void AddDatabaseFlags(CLI::App& cmd, EngineFlags& engine);

// The engine such a command runs on (one connection), the store migrated
// and shaped for its model; null, with the reason logged as `command`'s,
// when the flags cannot make one.
std::unique_ptr<Engine> OpenEngine(const char* command, const EngineFlags& flags);

// Registers --model FILE, with IDRES_MODEL, as `idres serve` has it.
void AddModelFlag(CLI::App& cmd, std::string& model_file);

// The built-in model, or the one the file makes of it. Throws
// std::runtime_error saying what is wrong with the file.
Model BuildModel(const std::string& model_file);

// The batch commands' --progress auto|bar|plain|off.
void AddProgressFlag(CLI::App& cmd, batch::ProgressMode& mode);

}  // namespace idres::app
