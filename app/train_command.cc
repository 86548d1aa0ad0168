// `idres train`: fits the matching model's m and u to the records of a
// store or of input files, without labels (docs/matching.md, "Training a
// model"), and writes the fitted model file for --model. Prints the fitted
// numbers, how EM converged and threshold guidance; draws the
// match-weights chart with --chart. Exit status 0 when the model was
// written, 1 when the data cannot train it (no pairs, EM not converging),
// 2 for bad flags or input; nothing is written unless it is 0.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "app/commands.h"
#include "app/engine_flags.h"
#include "app/mapping_flags.h"
#include "app/train_input.h"
#include "base/atomic_file.h"
#include "batch/job_defaults.h"
#include "engine/errors.h"
#include "matcher/model_file.h"
#include "train/report.h"
#include "train/threshold_guide.h"
#include "train/training.h"

namespace idres::app {
namespace {

struct TrainFlags {
  TrainSource source;
  MappingFlags mapping;
  std::string model_file;
  std::string out;
  std::string chart;
  bool set_threshold = false;
  train::TrainOptions options;
  train::GuideOptions guide;
};

// Why `path` cannot be written, checked before any work: its folder must
// exist.
std::optional<std::string> Unwritable(const std::string& flag, const std::string& path) {
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty() || std::filesystem::is_directory(dir)) return std::nullopt;
  return flag + " " + path + ": the folder " + dir.string() + " does not exist";
}

std::optional<std::string> CheckFlags(TrainFlags& f, Model& model) {
  if (auto bad = Unwritable("--out", f.out)) return bad;
  if (!f.chart.empty()) {
    if (auto bad = Unwritable("--chart", f.chart)) return bad;
  }
  try {
    model = BuildModel(f.model_file);
  } catch (const std::exception& e) {
    return e.what();
  }
  if (!f.source.files.empty()) {
    if (auto bad = BuildMapping(f.mapping, model, &f.source.mapping)) return bad;
  }
  if (!(f.options.recall > 0 && f.options.recall <= 1)) return "--recall must be in (0, 1]";
  if (f.options.prior && !(*f.options.prior > 0 && *f.options.prior < 1)) {
    return "--prior must be in (0, 1)";
  }
  return std::nullopt;
}

// Reads the records; 0 when there are some, else the exit status.
int Read(const TrainFlags& f, const Model& model, train::RecordTable& table) {
  std::variant<SourceCounts, std::string> read;
  try {
    read = ReadTrainingRecords(f.source, model, table);
  } catch (const EngineError& e) {
    spdlog::error("train: {}", e.what());
    return 2;
  }
  if (auto* e = std::get_if<std::string>(&read)) {
    spdlog::error("train: {}", *e);
    return 2;
  }
  const SourceCounts& c = std::get<SourceCounts>(read);
  std::printf(
      "read %llu records, kept %llu (%llu unreadable, %llu without a value of the model, "
      "%llu values that do not normalize left out)\n",
      static_cast<unsigned long long>(c.records), static_cast<unsigned long long>(c.kept),
      static_cast<unsigned long long>(c.unreadable), static_cast<unsigned long long>(c.empty),
      static_cast<unsigned long long>(c.rejected));
  return 0;
}

std::string SourceName(const TrainFlags& f) {
  if (f.source.files.empty()) return "a store snapshot";
  std::string out;
  for (const std::string& file : f.source.files) {
    out += (out.empty() ? "" : ", ") + std::filesystem::path(file).filename().string();
  }
  return out;
}

// Writes the model file (and the chart); the exit status.
int Write(const TrainFlags& f, const train::Training& t, const Model& model) {
  const std::string text = train::TrainingPreamble(t, SourceName(f), f.options.seed) +
                           ModelToToml(model, train::TrainingNotes(t));
  if (auto e = ReplaceFile(f.out, text)) {
    spdlog::error("train: {}", *e);
    return 2;
  }
  std::printf("\nwrote %s\n", f.out.c_str());
  if (f.chart.empty()) return 0;
  const double prior = std::log2(t.prior.lambda / (1 - t.prior.lambda));
  const std::string svg = train::MatchWeightsSvg(
      train::ChartOf(t), prior, "Match weights fitted by idres train (" + SourceName(f) + ")");
  if (auto e = ReplaceFile(f.chart, svg)) {
    spdlog::error("train: {}", *e);
    return 2;
  }
  std::printf("wrote %s\n", f.chart.c_str());
  return 0;
}

int RunTrain(TrainFlags& f) {
  Model start;
  if (auto bad = CheckFlags(f, start)) {
    spdlog::error("train: {}", *bad);
    return 2;
  }
  train::RecordTable table(start);
  if (int status = Read(f, start, table)) return status;
  const train::BlockingKeys keys(table, start);
  auto trained = train::Train(table, keys, start, f.options);
  if (auto* e = std::get_if<std::string>(&trained)) {
    spdlog::error("train: {}", *e);
    return 1;
  }
  const train::Training& t = std::get<train::Training>(trained);
  std::fputs(train::TrainingTable(t).c_str(), stdout);
  Model model = t.model;
  f.guide.seed = f.options.seed;
  const train::ThresholdGuide guide =
      train::GuideThreshold(table, keys, model, t.prior.lambda, f.guide);
  std::fputs(train::GuideTable(guide, model.threshold).c_str(), stdout);
  if (f.set_threshold && guide.suggested) {
    model.threshold = *guide.suggested;
    model.review_threshold = std::min(model.review_threshold, model.threshold);
    std::printf("threshold set to %.1f\n", model.threshold);
  }
  return Write(f, t, model);
}

}  // namespace

void AddTrainCommand(CLI::App& app) {
  auto f = std::make_shared<TrainFlags>();
  f->source.database_url = batch::kEmbeddedDatabaseUrl;
  auto* cmd = app.add_subcommand(
      "train", "Fit the matching model's m and u to a store's records or to input files");
  cmd->add_option("files", f->source.files,
                  "Input files, read as idres import reads them (none: the store's records)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", f->out, "The fitted model file to write")->required();
  cmd->add_option("--database-url", f->source.database_url,
                  "PostgreSQL URL of the store to learn from (without files)")
      ->envname("IDRES_DATABASE_URL")
      ->capture_default_str();
  cmd->add_option("--model", f->model_file,
                  "Start model: its types, levels, blocking rules and thresholds are kept "
                  "(default: the built-in one)");
  AddMappingFlags(*cmd, f->mapping, f->source.format, false);
  cmd->add_option("--region", f->source.region, "Region for phones of records naming none");
  cmd->add_option("--seed", f->options.seed, "Seed of every random choice")->capture_default_str();
  cmd->add_option("--random-pairs", f->options.random_pairs, "Random pairs drawn for u")
      ->capture_default_str();
  cmd->add_option("--max-records", f->source.max_records,
                  "Records kept at most (more: a uniform sample by the seed)")
      ->capture_default_str();
  cmd->add_option("--max-rule-pairs", f->options.max_rule_pairs,
                  "Candidate pairs one EM run looks at, at most (more: sampled)")
      ->capture_default_str();
  cmd->add_option("--recall", f->options.recall,
                  "Share of true matches the prior's deterministic rule finds")
      ->capture_default_str();
  cmd->add_option("--prior", f->options.prior,
                  "The probability that two random records match, instead of the rule's estimate");
  cmd->add_option("--max-iterations", f->options.max_iterations, "EM iterations per run, at most")
      ->capture_default_str();
  cmd->add_option("--tolerance", f->options.tolerance,
                  "EM has converged once no m moves more than this")
      ->capture_default_str();
  cmd->add_option("--chart", f->chart, "Also draw the match-weights chart to this SVG file");
  cmd->add_option("--min-precision", f->guide.min_precision,
                  "Estimated precision the suggested threshold keeps")
      ->capture_default_str();
  cmd->add_flag("--set-threshold", f->set_threshold,
                "Write the suggested threshold into the model (else the start model's stays)");
  cmd->callback([f] { SetExitCode(RunTrain(*f)); });
}

}  // namespace idres::app
