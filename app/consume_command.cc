// `idres consume`: applies records read from Kafka topics, each message
// exactly once across crashes and rebalances (batch/stream_consumer.h;
// docs/batch.md, "Streams"), until SIGTERM or SIGINT; dead letters to a
// topic or a file; metrics on --metrics-listen.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <map>
#include <memory>

#include "app/commands.h"
#include "app/engine_flags.h"
#include "batch/consume_metrics.h"
#include "batch/job_defaults.h"
#include "batch/metrics_listener.h"
#include "batch/stream_consumer.h"

namespace idres::app {
namespace {

struct ConsumeFlags {
  batch::ConsumeOptions options;
  std::vector<std::string> properties;  // -X key=value
  std::string dead_letter_topic;
  std::string dead_letter_path = "idres-consume.dead-letter.ndjson";
  std::string metrics_listen;
  EngineFlags engine;
};

std::unique_ptr<batch::StreamDeadLetters> OpenDeadLetters(const ConsumeFlags& f) {
  if (!f.dead_letter_topic.empty())
    return batch::DeadLetterTopic(f.options.kafka, f.dead_letter_topic, f.options.stop);
  return batch::DeadLetterFileAt(f.dead_letter_path);
}

int RunConsumeCommand(ConsumeFlags& f) {
  for (const std::string& spec : f.properties) {
    if (auto error = f.options.kafka.AddOption(spec)) {
      spdlog::error("consume: {}", *error);
      return 2;
    }
  }
  f.options.stop = &batch::StopOnInterrupt();
  try {
    EngineOptions eo = f.engine.ToOptions(f.options.workers + 1);
    MigrateStore(eo.database_url, eo.model);
    Engine engine(std::move(eo));
    auto dead_letters = OpenDeadLetters(f);
    batch::ConsumeMetrics metrics;
    std::unique_ptr<batch::MetricsListener> listener;
    if (!f.metrics_listen.empty()) {
      listener = std::make_unique<batch::MetricsListener>(f.metrics_listen,
                                                          [&] { return metrics.Text(); });
      spdlog::info("consume: metrics on http://{}/metrics (port {})", f.metrics_listen,
                   listener->port());
    }
    const batch::ConsumeRun run = batch::RunConsume(f.options, engine, *dead_letters, metrics);
    if (run.error) {
      spdlog::error("consume: {}", *run.error);
      return 1;
    }
    return 0;
  } catch (const std::invalid_argument& e) {
    spdlog::error("consume: {}", e.what());
    return 2;
  } catch (const std::exception& e) {
    spdlog::error("consume: {}", e.what());
    return 1;
  }
}

void AddKafkaFlags(CLI::App& cmd, ConsumeFlags& f) {
  cmd.add_option("--brokers", f.options.kafka.brokers, "Kafka bootstrap servers host:port[,...]")
      ->required();
  cmd.add_option("--topic", f.options.topics, "Topic to read records from (repeatable)")
      ->required();
  cmd.add_option("--group", f.options.applier.group,
                 "Consumer group; the store keeps its positions")
      ->required();
  cmd.add_option("-X", f.properties,
                 "librdkafka property key=value (repeatable: security.protocol, sasl.*, ssl.*)");
  std::map<std::string, batch::StreamFormat> formats{{"ndjson", batch::StreamFormat::kNdjson},
                                                     {"proto", batch::StreamFormat::kProto}};
  cmd.add_option("--format", f.options.applier.format,
                 "ndjson (a record as JSON) or proto (a binary idres.v1.Record)")
      ->transform(CLI::CheckedTransformer(formats, CLI::ignore_case));
  cmd.add_option("--dead-letter-topic", f.dead_letter_topic,
                 "Topic for messages that are no record or are refused");
  cmd.add_option("--dead-letter", f.dead_letter_path, "Without --dead-letter-topic: this file")
      ->capture_default_str();
  cmd.add_option("--metrics-listen", f.metrics_listen, "Serve GET /metrics on IPv4-ADDRESS:PORT");
}

}  // namespace

void AddConsumeCommand(CLI::App& app) {
  auto flags = std::make_shared<ConsumeFlags>();
  batch::ConsumeOptions& o = flags->options;
  flags->engine.database_url = batch::kEmbeddedDatabaseUrl;
  // As for import: a batch waits for its locks rather than failing.
  flags->engine.lock_timeout_ms = 30000;
  auto* cmd = app.add_subcommand(
      "consume", "Apply records from Kafka topics, each message exactly once, until stopped");
  AddKafkaFlags(*cmd, *flags);
  cmd->add_option("--source", o.applier.defaults.source,
                  "Source of records naming none (default kafka:<topic>)");
  cmd->add_option("--region", o.applier.defaults.region,
                  "Region for phones of records naming none");
  cmd->add_option("--workers", o.workers, "Partitions applied in parallel")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("--batch", o.batch, "Most messages of a partition per batch upsert")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--max-buffered", o.max_buffered,
                  "Messages waiting in memory before fetching pauses")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--database-url", flags->engine.database_url, "PostgreSQL URL")
      ->envname("IDRES_DATABASE_URL")
      ->capture_default_str();
  cmd->add_option("--lock-timeout-ms", flags->engine.lock_timeout_ms, "Engine lock timeout")
      ->capture_default_str();
  cmd->add_option("--max-traits", flags->engine.max_traits, "Most traits per record")
      ->capture_default_str();
  cmd->add_option("--max-person-traits", flags->engine.max_person_traits,
                  "Most traits a person may come to hold")
      ->capture_default_str();
  AddModelFlag(*cmd, flags->engine.model_file);
  // UNSAFE, for the test that shows what positions in the records'
  // transaction protect; not in --help.
  cmd->add_flag("--unsafe-positions-outside-tx", o.applier.positions_outside_tx)->group("");
  cmd->callback([flags] { SetExitCode(RunConsumeCommand(*flags)); });
}

}  // namespace idres::app
