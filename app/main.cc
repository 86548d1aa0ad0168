// idres: one executable, one subcommand per job (serve, normalize, import,
// reconcile, changes, consume, train, model). Parsing is CLI11's; logging is spdlog's (to stderr).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <exception>

#include "app/commands.h"

namespace {
int g_exit_code = 0;
}

namespace idres::app {
void SetExitCode(int code) { g_exit_code = code; }
int ExitCode() { return g_exit_code; }
}  // namespace idres::app

int main(int argc, char** argv) {
  spdlog::set_default_logger(spdlog::stderr_color_mt("idres"));
  CLI::App app{"idres: identity-resolution upsert engine on PostgreSQL"};
  app.require_subcommand(1);
  std::string log_level = "info";
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error")
      ->envname("IDRES_LOG_LEVEL");
  app.parse_complete_callback([&] { spdlog::set_level(spdlog::level::from_str(log_level)); });

  idres::app::AddServeCommand(app);
  idres::app::AddNormalizeCommand(app);
  idres::app::AddImportCommand(app);
  idres::app::AddReconcileCommand(app);
  idres::app::AddModelCommand(app);
  idres::app::AddChangesCommand(app);
  idres::app::AddRecordCommands(app);
  idres::app::AddExplainCommand(app);
  idres::app::AddConsumeCommand(app);
  idres::app::AddTrainCommand(app);
  idres::app::AddAuditCommand(app);
  idres::app::AddTokenCommand(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
  return idres::app::ExitCode();
}
