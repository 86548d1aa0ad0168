// `idres token new NAME --roles ingest,read [--rate N] [--concurrency N]`:
// a fresh random token for the tokens file of `idres serve --tokens`
// (docs/access.md, "The tokens file"). It prints the token once, on the first
// line, then the lines to add to the file, which hold only its SHA-256: the
// token is stored nowhere. Exit status 0, 2 for bad flags.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "api/service/tokens_file.h"
#include "app/commands.h"

namespace idres::app {
namespace {

struct TokenFlags {
  std::string name;
  std::vector<std::string> roles;
  double rate = 0;
  int concurrency = 0;
};

int RunTokenNew(const TokenFlags& f) {
  api::TokenEntry entry;
  entry.name = f.name;
  if (!api::ValidTokenName(f.name)) {
    spdlog::error("token new: a name is 1-64 letters, digits, '-' or '_', not \"{}\"", f.name);
    return 2;
  }
  for (const std::string& name : f.roles) {
    const auto role = api::RoleNamed(name);
    if (!role) {
      spdlog::error("token new: unknown role \"{}\" (roles: ingest, read, steward, admin)", name);
      return 2;
    }
    entry.roles |= static_cast<api::RoleSet>(*role);
  }
  if (f.rate < 0 || f.concurrency < 0) {
    spdlog::error("token new: --rate and --concurrency are positive (0: none)");
    return 2;
  }
  entry.rate = f.rate;
  entry.concurrency = f.concurrency;
  const std::string token = api::NewToken();
  entry.sha256 = api::DigestOf(token);
  std::printf("%s\n# add to the tokens file (the token above is shown once and stored nowhere):\n%s",
              token.c_str(), api::TokensFileEntry(entry).c_str());
  return 0;
}

}  // namespace

void AddTokenCommand(CLI::App& app) {
  auto* token = app.add_subcommand("token", "Tokens for idres serve --tokens FILE");
  token->require_subcommand(1);
  auto flags = std::make_shared<TokenFlags>();
  auto* create = token->add_subcommand(
      "new", "Print a fresh random token once, and its lines for the tokens file");
  create->add_option("name", flags->name, "The token's name (the audit log's actor)")->required();
  create->add_option("--roles", flags->roles, "ingest, read, steward, admin (comma-separated)")
      ->required()
      ->delimiter(',');
  create->add_option("--rate", flags->rate, "calls per second it may make (default: no bound)");
  create->add_option("--concurrency", flags->concurrency,
                     "calls it may have in flight (default: no bound)");
  create->callback([flags] { SetExitCode(RunTokenNew(*flags)); });
}

}  // namespace idres::app
