// StatsKeeper: keeps the planner's statistics of the store's hot tables
// (persons, identifiers, match_keys, records, import_receipts, merges)
// current while the engine
// writes (docs/design.md, "Planner statistics follow the store").
//
// A store starts empty, and the engine's statements are planned once per
// connection (generic plans of prepared statements). Planned on an empty
// table, the candidate read's probes are sequential scans; autovacuum's
// analyze comes too late for a bulk load (it wakes once a minute), so every
// chunk would scan the whole table once per key and a first import would
// slow with every record it writes. So the engine counts the records it
// writes and ANALYZEs the hot tables whenever they have grown by a factor
// since the last time: after min_rows records, then each time the store has
// doubled (growth 1.0). That is cheap while the tables are small and rare
// when they are big (ANALYZE samples a bounded number of rows), and
// PostgreSQL invalidates the prepared statements' plans when it runs, so
// every connection plans again on the new statistics.
//
// The ANALYZE runs on a thread of its own, in a transaction of its own on a
// pooled connection: never inside an upsert's locked transaction, never on
// a caller's time. Never two at once: one thread per engine, and across
// processes (an import beside a server) pg_try_advisory_xact_lock on
// LockKey("idres", "analyze"): whoever does not get it skips the round, as
// the other one is analyzing the same tables. Failures (a lock held by
// autovacuum past the round's lock timeout, a lost connection) are logged
// and the round is tried again after the next min_rows writes.
//
// Thread-safety: Wrote() and Settle() may be called from any thread.
// Internal to engine/.
#pragma once

#include <cstdint>
#include <thread>

#include "base/mutex.h"
#include "engine/detail/pool.h"

namespace idres::detail {

class StatsKeeper {
 public:
  struct Options {
    std::int64_t min_rows = 200;  // the first ANALYZE, and the least between two
                                  // (docs/design.md says why so early)
    double growth = 1.0;          // then each time the records grew by this share
  };

  StatsKeeper(Pool& pool, Options options);
  ~StatsKeeper();  // finishes a round in progress
  StatsKeeper(const StatsKeeper&) = delete;
  StatsKeeper& operator=(const StatsKeeper&) = delete;

  // `records` were committed; wakes the thread when a round is due. Cheap.
  void Wrote(std::int64_t records) EXCLUDES(mu_);

  // Returns once no round is due or running (tests: the statistics are what
  // the engine leaves them after the writes so far).
  void Settle() EXCLUDES(mu_);

  // How many rounds analyzed the tables (not those that left them to another
  // process).
  std::int64_t rounds() const EXCLUDES(mu_);

 private:
  bool Due() const REQUIRES(mu_);
  void Loop() EXCLUDES(mu_);
  // One round; the records table's rows after it (reltuples), or -1 when
  // another process held the round's lock or the round failed.
  std::int64_t Analyze();

  Pool& pool_;
  const Options options_;
  mutable Mutex mu_;
  CondVar cv_;
  std::int64_t written_ GUARDED_BY(mu_) = 0;   // records since the last round
  std::int64_t baseline_ GUARDED_BY(mu_) = 0;  // records at the last round
  std::int64_t rounds_ GUARDED_BY(mu_) = 0;
  bool running_ GUARDED_BY(mu_) = false;
  bool stop_ GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace idres::detail
