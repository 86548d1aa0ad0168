// RunReconcile: the `idres reconcile` job on the engine's two steps
// (engine/engine.h): FindReconcileGroups (a read-only snapshot of the groups
// of persons that should be one, and of persons whose stored values are not
// in today's normalized form), then Reconcile on each group, under the
// upsert's locks. Prints each merge (or, with dry_run, each group it would
// apply, and nothing is written) with its reasons, shows progress like
// import, and sums up. A group that stays busy (a lock timeout, or
// conflicts past the retries, under live traffic: BusyError, ConflictError)
// is skipped and reported, and the run goes on; any other error ends it.
//
// Thread-safety: one run per call; `stop` may be set from a signal handler.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "batch/progress.h"
#include "engine/engine.h"

namespace idres::batch {

struct ReconcileSummary {
  bool dry_run = false;
  std::uint64_t groups = 0;          // groups found
  std::uint64_t groups_applied = 0;  // groups reconciled (0 in a dry run)
  std::uint64_t groups_skipped = 0;  // left for the next run: busy past the lock timeout
  std::uint64_t merges = 0;          // groups in which persons were (would be) merged
  std::uint64_t persons_merged_away = 0;
  std::uint64_t identifiers_rewritten = 0;
  double seconds = 0;

  std::string ToText() const;
  std::string ToJson() const;
};

struct ReconcileRun {
  ReconcileSummary summary;
  std::optional<std::string> error;  // why the run stopped early, or left groups
  bool interrupted = false;          // by `stop`
};

// Finds the groups (phones re-normalized for `region`; empty: the engine's
// default) and, unless `dry_run`, reconciles each. `print` gets one line per
// group (stdout in the command).
ReconcileRun RunReconcile(Engine& engine, const std::string& region, bool dry_run,
                          ProgressMode progress,
                          const std::function<void(const std::string&)>& print,
                          const std::atomic<bool>* stop);

}  // namespace idres::batch
