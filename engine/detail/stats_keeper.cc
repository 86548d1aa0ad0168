#include "engine/detail/stats_keeper.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>

#include "engine/detail/statements.h"
#include "engine/detail/tx.h"
#include "normalize/lock_key.h"

namespace idres::detail {
namespace {

// An autovacuum working on a table holds the lock ANALYZE needs; rather
// than wait behind it, the round gives up and comes again later.
constexpr std::chrono::milliseconds kRoundLockTimeout{1000};

}  // namespace

StatsKeeper::StatsKeeper(Pool& pool, Options options)
    : pool_(pool), options_(options), thread_([this] { Loop(); }) {}

StatsKeeper::~StatsKeeper() {
  {
    MutexLock lock(&mu_);
    stop_ = true;
  }
  cv_.NotifyAll();
  thread_.join();
}

bool StatsKeeper::AnalyzeDue() const {
  const double grown = options_.growth * static_cast<double>(baseline_);
  return static_cast<double>(written_) >= std::max(static_cast<double>(options_.min_rows), grown);
}

bool StatsKeeper::FoldDue() const { return fold_asked_ || unfolded_ >= options_.fold_rows; }

void StatsKeeper::Wrote(std::int64_t records) {
  bool due = false;
  {
    MutexLock lock(&mu_);
    written_ += records;
    unfolded_ += records;
    due = !running_ && (AnalyzeDue() || FoldDue());
  }
  if (due) cv_.NotifyAll();
}

void StatsKeeper::FoldSoon() {
  {
    MutexLock lock(&mu_);
    fold_asked_ = true;
  }
  cv_.NotifyAll();
}

void StatsKeeper::Settle() {
  MutexLock lock(&mu_);
  while (running_ || ((AnalyzeDue() || FoldDue()) && !stop_)) cv_.Wait(&mu_);
}

std::int64_t StatsKeeper::rounds() const {
  MutexLock lock(&mu_);
  return rounds_;
}

void StatsKeeper::Loop() {
  MutexLock lock(&mu_);
  while (!stop_) {
    if (FoldDue()) {
      // Asked or not, whatever was written up to here is folded (or, when
      // the round fails or another process folds, waits fold_rows more).
      running_ = true;
      unfolded_ = 0;
      fold_asked_ = false;
      lock.Unlock();
      Fold();
      lock.Lock();
      running_ = false;
      cv_.NotifyAll();
      continue;
    }
    if (!AnalyzeDue()) {
      cv_.Wait(&mu_);
      continue;
    }
    running_ = true;
    const std::int64_t written = written_;
    lock.Unlock();
    const std::int64_t analyzed = Analyze();
    lock.Lock();
    running_ = false;
    if (analyzed >= 0) {
      written_ -= written;
      baseline_ = analyzed;
      ++rounds_;
    } else {
      // Nothing analyzed (another process is, or the round failed): the
      // next round comes after min_rows more writes, not with the next one.
      written_ = 0;
    }
    cv_.NotifyAll();
  }
}

std::int64_t StatsKeeper::Analyze() {
  static const std::int64_t key = LockKey("idres", "analyze");
  try {
    Pool::Lease lease = pool_.Borrow();
    Tx tx(lease, Timeouts{kRoundLockTimeout, std::nullopt, {}});
    if (tx.Exec(kTryRoundLock, key)[0][0].as<std::string>() != "t") return -1;
    tx.Defer(kAnalyzeHotTables);
    const std::int64_t rows = tx.ExecAndCommit(kRecordsAnalyzed)[0][0].as<std::int64_t>();
    spdlog::debug("planner statistics: hot tables analyzed at {} records", rows);
    return rows;
  } catch (const std::exception& e) {
    spdlog::warn("planner statistics: the tables were not analyzed this round: {}", e.what());
    return -1;
  }
}

bool StatsKeeper::Fold() {
  static const std::int64_t key = LockKey("idres", "fold");
  try {
    Pool::Lease lease = pool_.Borrow();
    Tx tx(lease, Timeouts{kRoundLockTimeout, std::nullopt, {}});
    if (tx.Exec(kTryRoundLock, key)[0][0].as<std::string>() != "t") return false;
    const Rows folded = tx.Exec(kFoldCounts);
    tx.ExecAndCommit(kDropZeroCounts, folded[0][1].as<std::string>());
    spdlog::debug("value counts: {} values folded", folded[0][0].as<std::int64_t>());
    return true;
  } catch (const std::exception& e) {
    spdlog::warn("value counts: the deltas were not folded this round: {}", e.what());
    return false;
  }
}

}  // namespace idres::detail
