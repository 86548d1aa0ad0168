// Placeholder until its issue lands: the subcommand exists and says so.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "app/commands.h"

namespace idres::app {

void AddImportCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("import", "(not built yet)");
  cmd->callback([] {
    spdlog::error("'import' is not built yet");
    SetExitCode(2);
  });
}

}  // namespace idres::app
