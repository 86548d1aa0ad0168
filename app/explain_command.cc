// `idres explain`: why a record would be a person (docs/matching.md, "Explanations
// and possible matches"). Reads one record as JSON (the Record message of
// the API: {"identifiers":[{"type":..,"value":..}],"traits":{..},...}) from
// stdin, has it decided as an upsert would decide it now — on the database
// (--database-url) or by a running service (--server) — writes nothing, and
// prints the decision as a table (app/explain_table.h). Exit status 0 with
// a decision, 1 when the record would be refused whole, 2 for bad input or
// flags.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <memory>
#include <variant>

#include "app/commands.h"
#include "app/engine_flags.h"
#include "app/explain_table.h"
#include "batch/service_call.h"
#include "client/client_requests.h"

namespace idres::app {
namespace {

struct ExplainFlags {
  EngineFlags engine;
  std::string server;
  std::string auth_token;
};

int RunExplain(const ExplainFlags& f) {
  const std::string input{std::istreambuf_iterator<char>(std::cin),
                          std::istreambuf_iterator<char>()};
  auto parsed = client::RecordFromJson(input);
  if (auto* error = std::get_if<std::string>(&parsed)) {
    spdlog::error("explain: the record on stdin: {}", *error);
    return 2;
  }
  const Record& record = std::get<Record>(parsed);
  Explanation e;
  try {
    if (!f.server.empty()) {
      const std::string body =
          batch::CallService(batch::ParseServiceUrl(f.server), f.auth_token, "Explain",
                             client::ExplainRequestProto(record), client::kProtoContentType);
      auto answer = client::ParseExplainProto(body);
      if (auto* error = std::get_if<std::string>(&answer)) {
        spdlog::error("explain: {}", *error);
        return 1;
      }
      e = std::get<Explanation>(std::move(answer));
    } else {
      auto engine = OpenEngine("explain", f.engine);
      if (!engine) return 2;
      e = engine->Explain(record);
    }
  } catch (const std::invalid_argument& err) {
    spdlog::error("explain: {}", err.what());
    return 2;
  } catch (const std::exception& err) {
    spdlog::error("explain: {}", err.what());
    return 1;
  }
  std::fputs(ExplanationTable(e).c_str(), stdout);
  return e.error ? 1 : 0;
}

}  // namespace

void AddExplainCommand(CLI::App& app) {
  auto flags = std::make_shared<ExplainFlags>();
  auto* cmd = app.add_subcommand(
      "explain", "Why: decide a record (JSON on stdin) as an upsert would, write nothing");
  AddDatabaseFlags(*cmd, flags->engine);
  cmd->add_option("--server", flags->server,
                  "Ask a running service (http://host:port) instead of the database");
  cmd->add_option("--auth-token", flags->auth_token, "Bearer token for --server")
      ->envname("IDRES_AUTH_TOKEN");
  cmd->callback([flags] { SetExitCode(RunExplain(*flags)); });
}

}  // namespace idres::app
