#include "engine/detail/stats_keeper.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>

#include "base/thread.h"
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
    : pool_(pool), options_(options), thread_([this] { Loop(); }) {
  NameThread(thread_, "idres-stats");
}

StatsKeeper::~StatsKeeper() {
  {
    MutexLock lock(&mu_);
    stop_ = true;
  }
  cv_.NotifyAll();
  thread_.join();
}

bool StatsKeeper::Due() const {
  const double grown = options_.growth * static_cast<double>(baseline_);
  return static_cast<double>(written_) >= std::max(static_cast<double>(options_.min_rows), grown);
}

void StatsKeeper::Wrote(std::int64_t records) {
  bool due = false;
  {
    MutexLock lock(&mu_);
    written_ += records;
    due = !running_ && Due();
  }
  if (due) cv_.NotifyAll();
}

void StatsKeeper::Settle() {
  MutexLock lock(&mu_);
  while (running_ || (Due() && !stop_)) cv_.Wait(&mu_);
}

std::int64_t StatsKeeper::rounds() const {
  MutexLock lock(&mu_);
  return rounds_;
}

void StatsKeeper::Loop() {
  MutexLock lock(&mu_);
  while (!stop_) {
    if (!Due()) {
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
    if (tx.Exec(kTryAnalyzeLock, key)[0][0].as<std::string>() != "t") return -1;
    tx.Defer(kAnalyzeHotTables);
    const std::int64_t rows = tx.ExecAndCommit(kRecordsAnalyzed)[0][0].as<std::int64_t>();
    spdlog::debug("planner statistics: hot tables analyzed at {} records", rows);
    return rows;
  } catch (const std::exception& e) {
    spdlog::warn("planner statistics: the tables were not analyzed this round: {}", e.what());
    return -1;
  }
}

}  // namespace idres::detail
