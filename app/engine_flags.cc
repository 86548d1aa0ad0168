#include "app/engine_flags.h"

#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>

#include "app/commands.h"
#include "batch/job_defaults.h"
#include "matcher/model_file.h"

namespace idres::app {

EngineOptions EngineFlags::ToOptions(int pool_size) const {
  EngineOptions options;
  options.database_url = database_url;
  options.pool_size = pool_size;
  // PostgreSQL reads lock_timeout 0 as none: a transaction could wait on a
  // lock for ever, which the per-transaction timeout is there to prevent.
  if (lock_timeout_ms < 1) throw std::runtime_error("--lock-timeout-ms must be at least 1");
  options.lock_timeout = std::chrono::milliseconds(lock_timeout_ms);
  options.max_identifiers = max_identifiers;
  options.max_traits = max_traits;
  options.max_person_traits = max_person_traits;
  options.model = BuildModel(model_file);
  return options;
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

void AddModelFlag(CLI::App& cmd, std::string& model_file) {
  cmd.add_option("--model", model_file, "TOML model file (idres model prints the built-in one)")
      ->envname("IDRES_MODEL");
}

Model BuildModel(const std::string& model_file) {
  if (model_file.empty()) return Model::Defaults();
  auto result = LoadModelFile(model_file);
  if (auto* error = std::get_if<std::string>(&result)) throw std::runtime_error(*error);
  return std::get<Model>(std::move(result));
}

void AddProgressFlag(CLI::App& cmd, batch::ProgressMode& mode) {
  const std::map<std::string, batch::ProgressMode> modes{{"auto", batch::ProgressMode::kAuto},
                                                         {"bar", batch::ProgressMode::kBar},
                                                         {"plain", batch::ProgressMode::kPlain},
                                                         {"off", batch::ProgressMode::kOff}};
  cmd.add_option("--progress", mode, "auto (bar on a terminal), bar, plain or off")
      ->transform(CLI::CheckedTransformer(modes, CLI::ignore_case));
}

void AddModelCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "model",
      "Print the effective matching model as a model file (the built-in one, or --model's)");
  auto model_file = std::make_shared<std::string>();
  AddModelFlag(*cmd, *model_file);
  cmd->callback([model_file] {
    try {
      std::cout << ModelToToml(BuildModel(*model_file));
      SetExitCode(0);
    } catch (const std::runtime_error& e) {
      std::cerr << "idres model: " << e.what() << "\n";
      SetExitCode(2);
    }
  });
}

}  // namespace idres::app
