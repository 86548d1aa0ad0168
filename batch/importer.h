// RunImport: the `idres import` job. Reads the inputs in order, cuts them
// into batches, sends the batches from `workers` threads to an UpsertSink,
// and commits progress in input order (committer.h): counts, dead letters,
// checkpoints and the progress display.
//
// Restart semantics: with `resume`, the run continues after the checkpoint's
// position; every record before it is committed, records after it are sent
// again with their receipts (upsert_sink.h), so a record committed before
// the interruption is not applied twice: the store ends as after an
// uninterrupted run.
// A batch whose call fails with a retryable EngineError is retried with
// backoff; any other failure stops the run after the batches in flight, with
// the checkpoint at the last gap-free position.
//
// Thread-safety: RunImport may run several times at once with different
// options; `stop` may be set from a signal handler.
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "batch/csv_mapping.h"
#include "batch/import_summary.h"
#include "batch/input_reader.h"
#include "batch/progress.h"
#include "batch/upsert_sink.h"

namespace idres::batch {

struct ImportOptions {
  std::vector<std::string> inputs;
  InputFormat format = InputFormat::kAuto;
  CsvMapping mapping;
  std::string default_region;  // for records that name none
  std::string source;          // for records that name none; "" = "import:<file>"
  int workers = 4;
  std::size_t batch_size = 500;
  std::string checkpoint_path;  // "" = no checkpoints (and no resume)
  bool resume = false;
  std::string dead_letter_path;  // "" = no dead-letter file
  double max_rate = 0;           // records per second; 0 = no cap
  int max_attempts = 6;          // per batch, for retryable failures
  ProgressMode progress = ProgressMode::kAuto;
  const std::atomic<bool>* stop = nullptr;  // set: finish in-flight work, then stop
};

struct ImportRun {
  ImportSummary summary;             // every record before the position
  bool complete = false;             // the whole input is committed
  std::optional<std::string> error;  // why the run stopped early
  bool before_any_write = false;     // `error` came before anything was sent
};

// Runs the import (see the file comment). Configuration errors (an input
// that is no regular file or cannot be opened, a CSV header that does not
// fit the mapping, a checkpoint of other inputs or one that cannot be
// written, a dead-letter file in use) come back in `error`, with
// `before_any_write`, before anything is sent.
ImportRun RunImport(const ImportOptions& options, UpsertSink& sink);

}  // namespace idres::batch
