#include "app/match_flags.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <stdexcept>

#include "app/commands.h"
#include "matcher/model_file.h"

namespace idres::app {

void AddMatchFlags(CLI::App& cmd, MatchFlags& flags) {
  cmd.add_option("--model", flags.model_file,
                 "TOML model file (idres model prints the built-in one)")
      ->envname("IDRES_MODEL");
}

Model BuildModel(const MatchFlags& flags) {
  if (flags.model_file.empty()) return Model::Defaults();
  auto result = LoadModelFile(flags.model_file);
  if (auto* error = std::get_if<std::string>(&result)) throw std::runtime_error(*error);
  return std::get<Model>(std::move(result));
}

void AddModelCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "model",
      "Print the effective matching model as a model file (the built-in one, or --model's)");
  auto flags = std::make_shared<MatchFlags>();
  AddMatchFlags(*cmd, *flags);
  cmd->callback([flags] {
    try {
      std::cout << ModelToToml(BuildModel(*flags));
      SetExitCode(0);
    } catch (const std::runtime_error& e) {
      std::cerr << "idres model: " << e.what() << "\n";
      SetExitCode(2);
    }
  });
}

}  // namespace idres::app
