// `idres audit [--since TIME]`: the audit log (docs/access.md, "The audit
// trail"), oldest first, as NDJSON: every steward's and admin's action with
// its actor, time, persons and request. Exit status 0, 2 for bad flags.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "app/commands.h"
#include "app/engine_flags.h"
#include "app/time_flag.h"
#include "engine/engine.h"

namespace idres::app {
namespace {

struct AuditFlags {
  EngineFlags engine;
  std::string since;  // empty: from the first entry
};

int RunAudit(const AuditFlags& f) {
  std::optional<std::chrono::system_clock::time_point> since;
  if (!f.since.empty()) {
    since = ParseTimeFlag(f.since);
    if (!since) {
      spdlog::error("audit: --since takes RFC 3339 (2026-01-02T03:04:05Z) or a date, not \"{}\"",
                    f.since);
      return 2;
    }
  }
  auto engine = OpenEngine("audit", f.engine);
  if (!engine) return 2;
  constexpr std::size_t kPage = 1000;
  std::int64_t after = 0;
  for (;;) {
    const std::vector<AuditEntry> page = engine->ReadAudit(since, after, kPage);
    for (const AuditEntry& e : page) {
      const nlohmann::json line = {
          {"seq", e.seq},         {"at", FormatRfc3339(e.at)},
          {"actor", e.actor},     {"action", e.action},
          {"persons", e.persons}, {"request", nlohmann::json::parse(e.request)}};
      std::printf("%s\n", line.dump().c_str());
      after = e.seq;
    }
    if (page.size() < kPage) return 0;
  }
}

}  // namespace

void AddAuditCommand(CLI::App& app) {
  auto flags = std::make_shared<AuditFlags>();
  auto* cmd = app.add_subcommand(
      "audit", "Print the audit log of steward and admin actions, oldest first, as NDJSON");
  cmd->add_option("--since", flags->since,
                  "only entries at or after TIME (RFC 3339, or a date: midnight UTC)");
  AddDatabaseFlags(*cmd, flags->engine);
  cmd->callback([flags] { SetExitCode(RunAudit(*flags)); });
}

}  // namespace idres::app
