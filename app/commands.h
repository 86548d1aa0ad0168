// The subcommands of the `idres` executable. Each Add*Command registers its
// subcommand, options and callback on the CLI11 app; the callback's return
// value becomes the process exit status (set through `SetExitCode`).
#pragma once

namespace CLI {
class App;
}

namespace idres::app {

void AddServeCommand(CLI::App& app);      // app/serve_command.cc
void AddNormalizeCommand(CLI::App& app);  // app/normalize_command.cc
void AddImportCommand(CLI::App& app);     // app/import_command.cc
void AddReconcileCommand(CLI::App& app);  // app/reconcile_command.cc
void AddModelCommand(CLI::App& app);      // app/engine_flags.cc
void AddChangesCommand(CLI::App& app);    // app/changes_command.cc
void AddRecordCommands(CLI::App& app);    // app/records_command.cc: delete-record, forget
void AddExplainCommand(CLI::App& app);    // app/explain_command.cc
void AddConsumeCommand(CLI::App& app);    // app/consume_command.cc
void AddTrainCommand(CLI::App& app);      // app/train_command.cc
void AddAuditCommand(CLI::App& app);      // app/audit_command.cc
void AddTokenCommand(CLI::App& app);      // app/token_command.cc

// The status main() returns once the chosen subcommand's callback ran.
void SetExitCode(int code);
int ExitCode();

}  // namespace idres::app
