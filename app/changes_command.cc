// `idres changes`: prints the change feed (docs/batch.md, "The change feed") as
// NDJSON, one change per line, flushed line by line: every change after
// --after, at most --limit of them, and with --follow the new ones as they
// come, until SIGINT or SIGTERM (batch/change_follow.h); or, with
// --to-kafka, publishes them to a Kafka topic (batch/change_publisher.h).
// It reads the database (--database-url) or a running service (--server),
// and writes nothing but the positions the sequencer hands out.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>

#include "app/commands.h"
#include "batch/change_follow.h"
#include "batch/change_listers.h"
#include "batch/change_publisher.h"
#include "batch/job_defaults.h"
#include "engine/engine.h"

namespace idres::app {
namespace {

struct ChangesFlags {
  batch::FollowOptions follow;
  int poll_ms = 200;
  std::string database_url = batch::kEmbeddedDatabaseUrl;
  std::string server;
  std::string auth_token;
  std::string to_kafka;  // topic
  batch::KafkaSettings kafka;
  std::vector<std::string> properties;  // -X key=value
};

void PrintLine(const std::string& line) {
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

int RunChangesCommand(ChangesFlags& f) {
  if (f.poll_ms < 1) {
    spdlog::error("changes: --poll-ms must be at least 1");
    return 2;
  }
  f.follow.poll = std::chrono::milliseconds(f.poll_ms);
  f.follow.stop = &batch::StopOnInterrupt();
  batch::ChangeLister list;
  if (!f.server.empty()) {
    try {
      list = batch::ServiceChanges(f.server, f.auth_token);
    } catch (const std::invalid_argument& e) {
      spdlog::error("changes: {}", e.what());
      return 2;
    }
  } else {
    // No MigrateStore: that takes a model, and this command has none to
    // shape the store for. A store without the feed fails on connecting.
    EngineOptions options;
    options.database_url = f.database_url;
    options.pool_size = 1;
    list = batch::EngineChanges(std::move(options));
  }
  if (!f.to_kafka.empty() && f.kafka.brokers.empty()) {
    spdlog::error("changes: --to-kafka needs --brokers");
    return 2;
  }
  for (const std::string& spec : f.properties) {
    if (auto error = f.kafka.AddOption(spec)) {
      spdlog::error("changes: {}", *error);
      return 2;
    }
  }
  const batch::FollowRun run = f.to_kafka.empty()
                                   ? batch::FollowChanges(list, f.follow, PrintLine)
                                   : batch::PublishChanges(list, f.follow, f.kafka, f.to_kafka);
  if (run.error) {
    spdlog::error("changes: {} (the last position printed: {})", *run.error, run.last);
    return 1;
  }
  return 0;
}

}  // namespace

void AddChangesCommand(CLI::App& app) {
  auto flags = std::make_shared<ChangesFlags>();
  auto* cmd = app.add_subcommand("changes", "Print the change feed as NDJSON, one change a line");
  cmd->add_option("--after", flags->follow.after,
                  "The last position already processed (0: from the first change)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--limit", flags->follow.most, "Print at most this many changes (0: no bound)")
      ->capture_default_str();
  cmd->add_flag("--follow", flags->follow.follow,
                "Keep printing new changes as they come, until SIGINT or SIGTERM");
  cmd->add_option("--poll-ms", flags->poll_ms, "With --follow: the wait between empty polls")
      ->capture_default_str();
  cmd->add_option("--database-url", flags->database_url, "PostgreSQL URL")
      ->envname("IDRES_DATABASE_URL")
      ->capture_default_str();
  cmd->add_option("--server", flags->server,
                  "Read a running idres service (http://host:port) instead");
  cmd->add_option("--auth-token", flags->auth_token, "Bearer token for --server")
      ->envname("IDRES_AUTH_TOKEN");
  cmd->add_option("--to-kafka", flags->to_kafka,
                  "Publish the changes to this Kafka topic instead (key: the person id)");
  cmd->add_option("--brokers", flags->kafka.brokers, "With --to-kafka: bootstrap servers");
  cmd->add_option("-X", flags->properties,
                  "With --to-kafka: librdkafka property key=value (repeatable)");
  cmd->callback([flags] { SetExitCode(RunChangesCommand(*flags)); });
}

}  // namespace idres::app
