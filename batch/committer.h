// Committer: turns batches finished in any order (parallel workers) into
// progress in input order: counts, dead letters and checkpoints advance only
// over the gap-free prefix of finished batches, so a checkpoint never claims
// a record whose batch has not committed.
//
// Checkpoints are written at most every `checkpoint_every` (and by Finish());
// before each one the dead-letter file is fsynced and its length recorded, so
// a resumed run cuts it back to exactly the entries before the position.
//
// Thread-safety: Complete() may be called from any number of workers;
// everything else is guarded by one mutex.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "base/mutex.h"
#include "batch/checkpoint.h"
#include "batch/dead_letter.h"
#include "batch/import_batch.h"
#include "batch/progress.h"

namespace idres::batch {

class Committer {
 public:
  // Continues from `start` (an empty checkpoint for a fresh run). `progress`
  // may be null; `total` is the number of records of the whole input.
  Committer(Checkpoint start, std::string checkpoint_path, DeadLetterFile* dead_letters,
            Progress* progress, std::uint64_t total,
            std::chrono::milliseconds checkpoint_every = std::chrono::milliseconds(200));

  // Takes a finished batch (results filled). Throws std::runtime_error when
  // the dead-letter file or the checkpoint cannot be written.
  void Complete(ImportBatch batch) EXCLUDES(mutex_);

  // Writes the final checkpoint (complete when `complete`) and shows the last
  // progress line; returns the counts of every record before the position.
  ImportSummary Finish(bool complete, double run_seconds) EXCLUDES(mutex_);

  // How far the committed prefix reaches ("after file:line"), for messages.
  std::string Position() const EXCLUDES(mutex_);

 private:
  void Apply(const ImportBatch& batch) REQUIRES(mutex_);
  void WriteCheckpointLocked(bool complete) REQUIRES(mutex_);
  ProgressSnapshot SnapshotLocked() const REQUIRES(mutex_);

  const std::string checkpoint_path_;
  DeadLetterFile* const dead_letters_;
  Progress* const progress_;
  const std::uint64_t total_;
  const std::chrono::milliseconds checkpoint_every_;

  mutable Mutex mutex_;
  Checkpoint state_ GUARDED_BY(mutex_);
  std::uint64_t next_seq_ GUARDED_BY(mutex_) = 0;
  std::map<std::uint64_t, ImportBatch> early_ GUARDED_BY(mutex_);  // finished out of order
  std::string next_position_ GUARDED_BY(mutex_);
  std::chrono::steady_clock::time_point last_checkpoint_ GUARDED_BY(mutex_);
};

}  // namespace idres::batch
