#include "batch/importer.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "base/mutex.h"
#include "batch/committer.h"
#include "batch/rate_limiter.h"
#include "batch/work_queue.h"
#include "normalize/lock_key.h"

namespace idres::batch {
namespace {

std::string Describe(const std::vector<ColumnMapping>& mappings, std::string_view verb) {
  std::string text;
  for (const ColumnMapping& m : mappings) {
    text += fmt::format("{} {}={};", verb, m.name, fmt::join(m.columns, "+"));
  }
  return text;
}

// The text a checkpoint records to recognise its inputs and mapping: each
// file's path, size and modification time, the mapping and the defaults.
std::string InputFingerprint(const ImportOptions& options) {
  std::string text;
  for (const std::string& input : options.inputs) {
    std::error_code ec;
    auto size = std::filesystem::file_size(input, ec);
    // A file edited in place keeps its size; its modification time moves.
    const auto modified = std::filesystem::last_write_time(input, ec).time_since_epoch();
    text += (FormatOf(input, options.format) == InputFormat::kCsv ? "csv " : "ndjson ") +
            std::filesystem::absolute(input, ec).string() + " (" +
            (ec ? "unreadable"
                : std::to_string(size) + " bytes, modified " +
                      std::to_string(
                          std::chrono::duration_cast<std::chrono::nanoseconds>(modified).count())) +
            "); ";
  }
  text += Describe(options.mapping.identifiers, "map") + Describe(options.mapping.traits, "trait");
  text += " region=" + options.default_region + "; source=" + options.source;
  return text;
}

std::variant<Checkpoint, std::string> StartingPoint(const ImportOptions& options) {
  Checkpoint fresh;
  fresh.fingerprint = InputFingerprint(options);
  if (!options.resume) return fresh;
  if (options.checkpoint_path.empty()) return std::string("--resume needs a checkpoint file");
  auto read = ReadCheckpoint(options.checkpoint_path);
  if (auto* error = std::get_if<std::string>(&read)) return *error;
  Checkpoint& found = std::get<Checkpoint>(read);
  if (found.fingerprint != AsStored(fresh.fingerprint)) {
    return "the checkpoint " + options.checkpoint_path +
           " was written for other inputs or another mapping; it holds:\n  " + found.fingerprint +
           "\nthis run has:\n  " + fresh.fingerprint;
  }
  return std::move(found);
}

// The receipt job of input file `file_index` of this import: the same on a
// resumed run (same inputs and mapping), different for another import.
std::int64_t ReceiptJob(const ImportOptions& options, std::size_t file_index) {
  return KeyOfBytes("import:" + InputFingerprint(options) + "#" + std::to_string(file_index));
}

// The receipt of `batch`: each readable record named by its end offset.
BatchReceipt ReceiptOf(const ImportBatch& batch, std::int64_t job) {
  BatchReceipt receipt{job, {}};
  for (std::size_t i = 0; i < batch.inputs.size(); ++i) {
    if (batch.record_of[i] != ImportBatch::kUnreadable) {
      receipt.items.push_back(static_cast<std::int64_t>(batch.inputs[i].end_offset));
    }
  }
  return receipt;
}

std::chrono::milliseconds Backoff(int attempt) {
  thread_local std::mt19937 random(std::random_device{}());
  int cap = std::min(5000, 100 << std::min(attempt, 6));
  return std::chrono::milliseconds(std::uniform_int_distribution<int>(cap / 2, cap)(random));
}

// One run: the reader on the calling thread, `workers` sending threads.
class ImportJob {
 public:
  ImportJob(const ImportOptions& options, UpsertSink& sink, Committer& committer)
      : options_(options),
        sink_(sink),
        committer_(committer),
        limiter_(options.max_rate),
        queue_(static_cast<std::size_t>(options.workers) * 2) {
    // Once per run: the fingerprint stats every input file.
    for (std::size_t f = 0; f < options.inputs.size(); ++f) {
      receipt_jobs_.push_back(ReceiptJob(options, f));
    }
  }

  // Reads from `start` to the end (or until stopped); true when all was read.
  bool Run(const Checkpoint& start) {
    std::vector<std::thread> workers;
    for (int i = 0; i < options_.workers; ++i) workers.emplace_back([this] { Work(); });
    bool read_all = ReadAll(start);
    queue_.Close();
    for (std::thread& t : workers) t.join();
    return read_all && !failed_;
  }

  std::optional<std::string> error() const EXCLUDES(error_mutex_) {
    MutexLock lock(&error_mutex_);
    return error_;
  }

 private:
  bool Stopping() const { return failed_ || (options_.stop != nullptr && options_.stop->load()); }

  void Fail(const std::string& message) EXCLUDES(error_mutex_) {
    {
      MutexLock lock(&error_mutex_);
      if (!error_) error_ = message;
    }
    failed_ = true;
    queue_.Close();
  }

  bool ReadAll(const Checkpoint& start) {
    std::uint64_t seq = 0;
    for (std::size_t f = start.file_index; f < options_.inputs.size(); ++f) {
      std::uint64_t offset = f == start.file_index ? start.offset : 0;
      auto opened =
          InputReader::Open(options_.inputs[f], options_.format, options_.mapping, offset);
      if (auto* message = std::get_if<std::string>(&opened)) {
        Fail(*message);
        return false;
      }
      InputReader& reader = *std::get<std::unique_ptr<InputReader>>(opened);
      std::string source =
          options_.source.empty()
              ? "import:" + std::filesystem::path(reader.path()).filename().string()
              : options_.source;
      ImportBatch batch;
      InputRecord input;
      bool more = true;
      while (more) {
        more = reader.Next(&input);
        if (more) Add(std::move(input), source, &batch);
        if (batch.inputs.size() == options_.batch_size || (!more && !batch.inputs.empty())) {
          if (Stopping()) return false;
          batch.seq = seq++;
          batch.file_index = f;
          batch.file = reader.path();
          batch.end_offset = batch.inputs.back().end_offset;
          if (!queue_.Push(std::move(batch))) return false;
          batch = ImportBatch();
        }
      }
    }
    return !Stopping();
  }

  void Add(InputRecord input, const std::string& source, ImportBatch* batch) const {
    if (auto* record = std::get_if<Record>(&input.parsed)) {
      if (record->default_region.empty()) record->default_region = options_.default_region;
      if (record->source.empty()) record->source = source;
      batch->record_of.push_back(batch->records.size());
      batch->records.push_back(std::move(*record));
    } else {
      batch->record_of.push_back(ImportBatch::kUnreadable);
    }
    batch->inputs.push_back(std::move(input));
  }

  void Work() {
    while (auto batch = queue_.Pop()) {
      if (Stopping()) continue;  // drain: batches not sent stay after the checkpoint
      try {
        limiter_.Acquire(batch->records.size());
        Send(&*batch);
        committer_.Complete(std::move(*batch));
      } catch (const std::exception& e) {
        Fail(e.what());
      }
    }
  }

  void Send(ImportBatch* batch) {
    if (batch->records.empty()) return;
    for (int attempt = 1;; ++attempt) {
      try {
        batch->results =
            sink_.BatchUpsert(batch->records, ReceiptOf(*batch, receipt_jobs_[batch->file_index]));
        if (batch->results.size() != batch->records.size()) {
          throw std::runtime_error("the store answered " + std::to_string(batch->results.size()) +
                                   " results for " + std::to_string(batch->records.size()) +
                                   " records");
        }
        return;
      } catch (const EngineError& e) {
        if (!e.retryable() || attempt >= options_.max_attempts || Stopping()) throw;
        auto wait = Backoff(attempt);
        spdlog::warn("batch from {}:{} failed ({}); attempt {} of {} in {} ms", batch->file,
                     batch->inputs.front().line, e.what(), attempt + 1, options_.max_attempts,
                     wait.count());
        std::this_thread::sleep_for(wait);
      }
    }
  }

  const ImportOptions& options_;
  UpsertSink& sink_;
  Committer& committer_;
  RateLimiter limiter_;
  WorkQueue<ImportBatch> queue_;
  std::vector<std::int64_t> receipt_jobs_;  // per input file; read-only once built
  std::atomic<bool> failed_{false};
  mutable Mutex error_mutex_;
  std::optional<std::string> error_ GUARDED_BY(error_mutex_);
};

// Every input a regular file that opens, and for CSV a header that fits the
// mapping. A pipe is refused: the run reads each input twice (to count, then
// to import) and resumes at byte offsets.
std::optional<std::string> CheckInputs(const ImportOptions& options) {
  for (const std::string& input : options.inputs) {
    std::error_code ec;
    if (!std::filesystem::exists(input, ec)) return "cannot open " + input;
    if (!std::filesystem::is_regular_file(input, ec)) {
      return input + " is not a regular file (an import reads its inputs twice and resumes at " +
             "byte offsets; save a pipe's output to a file first)";
    }
    auto reader = InputReader::Open(input, options.format, options.mapping);
    if (auto* error = std::get_if<std::string>(&reader)) return *error;
  }
  return std::nullopt;
}

// A run refused before anything was sent.
ImportRun Refused(std::string error) {
  ImportRun run;
  run.error = std::move(error);
  run.before_any_write = true;
  return run;
}

std::optional<std::string> Validate(const ImportOptions& options) {
  if (options.inputs.empty()) return "no input files";
  if (options.workers < 1) return "--workers must be at least 1";
  if (options.batch_size < 1) return "--batch must be at least 1";
  if (options.max_rate < 0) return "--max-rate must not be negative";
  return std::nullopt;
}

// How many records the inputs hold (for progress), or why one cannot be read.
std::variant<std::uint64_t, std::string> CountInputs(const ImportOptions& options) {
  std::uint64_t total = 0;
  for (const std::string& input : options.inputs) {
    auto count = CountRecords(input, options.format);
    if (!count) return "cannot open " + input;
    total += *count;
  }
  return total;
}

// Receipts make a resumed run apply each record once; a fresh run starts
// without any, and a complete run leaves none behind.
void ForgetReceipts(const ImportOptions& options, UpsertSink& sink) {
  for (std::size_t f = 0; f < options.inputs.size(); ++f) {
    sink.ForgetReceipts(ReceiptJob(options, f));
  }
}

// The run from `start` on, everything it needs checked: the workers, then
// the summary and what a resume needs to know.
ImportRun ImportFrom(const ImportOptions& options, UpsertSink& sink, const Checkpoint& start,
                     std::uint64_t total, DeadLetterFile* dead_letters) {
  ImportRun run;
  if (options.resume) {
    spdlog::info("resuming after {} records already committed", start.summary.total());
  }
  Progress progress(options.progress, "records");
  const auto started = std::chrono::steady_clock::now();
  Committer committer(start, options.checkpoint_path, dead_letters, &progress, total);
  try {
    if (!options.resume) ForgetReceipts(options, sink);
  } catch (const std::exception& e) {
    run.error = e.what();
    return run;
  }
  ImportJob job(options, sink, committer);
  const bool done = job.Run(start);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  try {
    run.summary = committer.Finish(done, seconds);
  } catch (const std::exception& e) {
    run.error = e.what();
    return run;
  }
  // Only once the checkpoint says complete: a resume from an earlier one
  // sends its tail again, which only the receipts make apply once.
  if (done) {
    try {
      ForgetReceipts(options, sink);
    } catch (const std::exception& e) {
      spdlog::warn("the import is complete, but its receipts stay: {}", e.what());
    }
  }
  run.complete = done;
  if (!done) {
    std::string why = job.error().value_or("interrupted");
    run.error = why + "; every record up to " + committer.Position() +
                " is committed; run again with --resume to continue";
  }
  return run;
}

}  // namespace

ImportRun RunImport(const ImportOptions& options, UpsertSink& sink) {
  if (auto error = Validate(options)) return Refused(*error);
  auto starting = StartingPoint(options);
  if (auto* error = std::get_if<std::string>(&starting)) return Refused(*error);
  const Checkpoint start = std::move(std::get<Checkpoint>(starting));
  if (start.complete) {
    spdlog::info("the checkpoint says this import is complete; nothing to do");
    ImportRun run;
    run.summary = start.summary;
    run.complete = true;
    return run;
  }
  if (auto error = CheckInputs(options)) return Refused(*error);
  const auto total = CountInputs(options);
  if (auto* error = std::get_if<std::string>(&total)) return Refused(*error);
  std::optional<DeadLetterFile> dead_letters;
  try {
    if (!options.dead_letter_path.empty()) {
      dead_letters.emplace(options.dead_letter_path, start.dead_letter_bytes);
    }
  } catch (const std::exception& e) {
    return Refused(e.what());
  }
  // A checkpoint that cannot be written would leave committed records with
  // nothing to resume from: find out before the first batch.
  if (!options.checkpoint_path.empty()) {
    if (auto error = WriteCheckpoint(options.checkpoint_path, start)) return Refused(*error);
  }
  return ImportFrom(options, sink, start, std::get<std::uint64_t>(total),
                    dead_letters ? &*dead_letters : nullptr);
}

}  // namespace idres::batch
