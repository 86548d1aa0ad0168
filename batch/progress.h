// Progress: how far a batch job is, shown while it runs. On a terminal a bar
// redrawn in place on stderr (done/total, records/s, ETA and the job's
// counters); otherwise one plain log line every few seconds, so logs of a
// scheduled run stay readable.
//
// Thread-safety: Update() and Finish() may be called from any thread; calls
// are serialized inside.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/mutex.h"

namespace idres::batch {

enum class ProgressMode { kAuto, kBar, kPlain, kOff };

struct ProgressSnapshot {
  std::uint64_t done = 0;   // items handled, earlier runs included
  std::uint64_t total = 0;  // 0 when unknown
  std::uint64_t done_this_run = 0;
  std::vector<std::pair<std::string, std::uint64_t>> counters;  // "created", 12
};

class Progress {
 public:
  // kAuto picks the bar when stderr is a terminal. `unit` names the items
  // ("records", "persons"); plain lines come every `interval`.
  Progress(ProgressMode mode, std::string unit,
           std::chrono::milliseconds interval = std::chrono::seconds(5));

  // Shows `snapshot` if the last output is old enough.
  void Update(const ProgressSnapshot& snapshot) EXCLUDES(mutex_);
  // Shows `snapshot` unconditionally and ends the bar's line.
  void Finish(const ProgressSnapshot& snapshot) EXCLUDES(mutex_);

  // The text of one update (no carriage return), for tests and logs.
  std::string Render(const ProgressSnapshot& snapshot, double elapsed_seconds, bool bar) const;

 private:
  void Show(const ProgressSnapshot& snapshot, bool final) EXCLUDES(mutex_);

  ProgressMode mode_;
  std::string unit_;
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point start_;
  Mutex mutex_;
  std::chrono::steady_clock::time_point last_shown_ GUARDED_BY(mutex_);
  bool shown_ GUARDED_BY(mutex_) = false;
};

}  // namespace idres::batch
