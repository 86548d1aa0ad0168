#include "batch/committer.h"

#include <stdexcept>

namespace idres::batch {

Committer::Committer(Checkpoint start, std::string checkpoint_path, DeadLetterFile* dead_letters,
                     Progress* progress, std::uint64_t total,
                     std::chrono::milliseconds checkpoint_every)
    : checkpoint_path_(std::move(checkpoint_path)),
      dead_letters_(dead_letters),
      progress_(progress),
      total_(total),
      checkpoint_every_(checkpoint_every),
      state_(std::move(start)),
      last_checkpoint_(std::chrono::steady_clock::now()) {
  state_.summary.resumed_records = state_.summary.total();
  state_.summary.run_records = 0;
}

void Committer::Complete(ImportBatch batch) {
  MutexLock lock(&mutex_);
  early_.emplace(batch.seq, std::move(batch));
  bool advanced = false;
  for (auto it = early_.find(next_seq_); it != early_.end(); it = early_.find(next_seq_)) {
    Apply(it->second);
    early_.erase(it);
    ++next_seq_;
    advanced = true;
  }
  if (!advanced) return;
  if (std::chrono::steady_clock::now() - last_checkpoint_ >= checkpoint_every_) {
    WriteCheckpointLocked(false);
  }
  if (progress_ != nullptr) progress_->Update(SnapshotLocked());
}

void Committer::Apply(const ImportBatch& batch) {
  ImportSummary& summary = state_.summary;
  for (std::size_t i = 0; i < batch.inputs.size(); ++i) {
    const InputRecord& input = batch.inputs[i];
    DeadLetter letter{batch.file, input.line, input.raw, "", true};
    std::size_t r = batch.record_of[i];
    if (r == ImportBatch::kUnreadable) {
      letter.reason = std::get<std::string>(input.parsed);
      summary.AddUnreadable(letter.reason);
    } else {
      const UpsertResult& result = batch.results.at(r);
      letter.reason = summary.Add(result);
      letter.whole_record = !result.ok();
    }
    if (!letter.reason.empty() && dead_letters_ != nullptr) dead_letters_->Append(letter);
  }
  summary.run_records += batch.inputs.size();
  state_.file_index = batch.file_index;
  state_.offset = batch.end_offset;
  if (!batch.inputs.empty()) {
    next_position_ = batch.file + ":" + std::to_string(batch.inputs.back().line);
  }
}

void Committer::WriteCheckpointLocked(bool complete) {
  if (dead_letters_ != nullptr) state_.dead_letter_bytes = dead_letters_->Sync();
  if (checkpoint_path_.empty()) return;
  state_.complete = complete;
  if (auto error = WriteCheckpoint(checkpoint_path_, state_)) throw std::runtime_error(*error);
  last_checkpoint_ = std::chrono::steady_clock::now();
}

ProgressSnapshot Committer::SnapshotLocked() const {
  const ImportSummary& s = state_.summary;
  ProgressSnapshot snapshot;
  snapshot.done = s.total();
  snapshot.total = total_;
  snapshot.done_this_run = s.run_records;
  for (const Outcome o : kOutcomes) {
    snapshot.counters.emplace_back(OutcomeName(o), static_cast<std::uint64_t>(s[o]));
  }
  snapshot.counters.emplace_back("rejected", s.rejected);
  return snapshot;
}

ImportSummary Committer::Finish(bool complete, double run_seconds) {
  MutexLock lock(&mutex_);
  state_.summary.run_seconds = run_seconds;
  WriteCheckpointLocked(complete);
  if (progress_ != nullptr) progress_->Finish(SnapshotLocked());
  return state_.summary;
}

std::string Committer::Position() const {
  MutexLock lock(&mutex_);
  return next_position_.empty() ? "the start" : "after " + next_position_;
}

}  // namespace idres::batch
