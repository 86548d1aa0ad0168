// `idres normalize [FILE]`: JSON lines in ({"type","value","region"?}), one
// JSON line out per input line, in order: the canonical value and its lock key
// (as a decimal string: JSON numbers lose int64 precision in most readers), or
// the input and the reason it was rejected. Exit 0 even when values are
// rejected; exit 2 when the input cannot be read or a line is not JSON.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <variant>

#include "app/commands.h"
#include "normalize/lock_key.h"
#include "matcher/model.h"
#include "normalize/normalizer.h"

namespace idres::app {
namespace {

using nlohmann::json;

struct NormalizeArgs {
  std::string file;  // empty: stdin
  // The built-in model's types, each normalized as its kind says.
  NormalizerConfig config = Model::Defaults().Normalizing();
};

std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::optional<std::string> StringField(const json& line, const char* name) {
  const auto it = line.find(name);
  if (it == line.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

// The output line for one parsed input line.
json Answer(const Normalizer& normalizer, const json& line, const std::string& text) {
  const auto type = line.is_object() ? StringField(line, "type") : std::nullopt;
  const auto value = line.is_object() ? StringField(line, "value") : std::nullopt;
  if (!type || !value) {
    return {{"type", type.value_or("")},
            {"input", text},
            {"error", "expected an object with string fields \"type\" and \"value\""}};
  }
  const auto region = StringField(line, "region").value_or("");
  const NormalizeResult result = normalizer.Normalize(*type, *value, region);
  if (const auto* id = std::get_if<Identifier>(&result)) {
    return {{"type", id->type}, {"value", id->value}, {"key", std::to_string(LockKey(*id))}};
  }
  const auto& rejection = std::get<Rejection>(result);
  return {{"type", rejection.type}, {"input", rejection.input}, {"error", rejection.reason}};
}

// Reads every line of `in`, answers each on `out`; the exit status.
int Run(const Normalizer& normalizer, std::istream& in, std::ostream& out) {
  std::string text;
  for (long number = 1; std::getline(in, text); ++number) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank line
    json line;
    try {
      line = json::parse(text);
    } catch (const json::parse_error& e) {
      out.flush();
      spdlog::error("line {} is not JSON: {}", number, e.what());
      return 2;
    }
    out << Dump(Answer(normalizer, line, text)) << '\n';
  }
  out.flush();
  if (in.bad()) {
    spdlog::error("reading the input failed");
    return 2;
  }
  return 0;
}

int RunOnFileOrStdin(const NormalizeArgs& args) {
  const Normalizer normalizer(args.config);
  std::ios::sync_with_stdio(false);
  if (args.file.empty() || args.file == "-") return Run(normalizer, std::cin, std::cout);
  std::ifstream file(args.file);
  if (!file) {
    spdlog::error("cannot read {}", args.file);
    return 2;
  }
  return Run(normalizer, file, std::cout);
}

}  // namespace

void AddNormalizeCommand(CLI::App& app) {
  auto args = std::make_shared<NormalizeArgs>();
  auto* cmd = app.add_subcommand(
      "normalize", "Normalize identifiers given as JSON lines and print their lock keys");
  cmd->add_option("FILE", args->file, "JSON lines file (default: stdin)");
  cmd->add_option("--region", args->config.default_region,
                  "Region for phone numbers without country code when a line has no \"region\"")
      ->capture_default_str();
  cmd->add_flag("--require-valid-phone", args->config.require_valid_phone,
                "Reject phone numbers that are possible but not valid (IsValidNumber)");
  cmd->add_option("--fold-email-domain", args->config.email_folding_domains,
                  "Apply gmail-style folding on this domain (repeatable)");
  cmd->callback([args] { SetExitCode(RunOnFileOrStdin(*args)); });
}

}  // namespace idres::app
