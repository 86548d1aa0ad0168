// Placeholder until its issue lands: the subcommand exists and says so.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "app/commands.h"

namespace idres::app {

void AddServeCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("serve", "(not built yet)");
  cmd->callback([] {
    spdlog::error("'serve' is not built yet");
    SetExitCode(2);
  });
}

}  // namespace idres::app
