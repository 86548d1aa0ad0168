// Engine::Impl: what one Engine owns, and the retry loop every public
// method runs its transaction through. Internal to engine/.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <set>
#include <span>
#include <string_view>

#include "engine/detail/pool.h"
#include "engine/detail/prepared_record.h"
#include "engine/detail/resolve.h"
#include "engine/detail/stats_keeper.h"
#include "engine/detail/tx.h"
#include "engine/engine.h"
#include "engine/testing.h"
#include "matcher/lock_plan.h"
#include "matcher/matcher.h"

namespace idres {

struct Engine::Impl {
  Impl(EngineOptions o, EngineSeams s);

  // Runs fn in a fresh transaction, committing after it returns. Deadlocks,
  // serialization failures, unique violations and vanished persons run it
  // again (bounded, jittered backoff); everything else becomes an
  // EngineError (engine/sqlstate.cc). fn must be safe to run again. Once
  // `deadline` passes, no attempt starts and the running one sends nothing
  // more (a statement already sent is cut short by the statement and lock
  // timeouts the deadline set); DeadlineError is thrown and it rolls back.
  void RunTx(const std::function<void(detail::Tx&)>& fn, const Deadline& deadline = {});

  // RunTx for the upsert paths: each attempt begins with step 3, the key
  // locks (sorted, unique) sent with BEGIN in one round trip (skipped by
  // seams.skip_locks), the wait reported to the observer, then the test hook.
  void RunLockedTx(std::span<const std::int64_t> lock_keys,
                   const std::function<void(detail::Tx&)>& fn, const Deadline& deadline = {});

  // Step 3 inside a running transaction (reconcile learns its keys from
  // what it reads): one statement, observer and hook as above.
  void LockKeys(detail::Tx& tx, std::span<const std::int64_t> keys);

  // The loop behind RunTx and RunLockedTx: each attempt's transaction
  // opens with `lock_keys` locked; with `upsert_locks`, the wait is the
  // upsert's (observer, test hook). The change feed's sequencer calls it
  // with its own key.
  void RunAttempts(const std::function<void(detail::Tx&)>& fn,
                   std::span<const std::int64_t> lock_keys, bool upsert_locks,
                   const Deadline& deadline);
  // The attempt's time limits: the configured lock timeout, both capped by
  // what is left of `deadline`.
  detail::Timeouts TimeoutsFor(const Deadline& deadline) const;
  // The lock wait since `start` to the observer, then the test hook.
  void AfterKeyLocks(std::span<const std::int64_t> keys,
                     std::chrono::steady_clock::time_point start);

  // Reconcile: the persons a group must take in, all their keys locked
  // (engine/reconcile.cc).
  std::set<std::int64_t> GrowReconcileGroup(detail::Tx& tx, const std::set<std::int64_t>& live,
                                            std::string_view region);

  // The person `id` (following a merge redirect) as read inside `tx`.
  std::optional<Person> ReadPerson(detail::Tx& tx, std::int64_t id);

  detail::PreparedRecord Prepare(const Record& record) const;
  detail::UpsertContext Context() const {
    return {matcher, planner, seams.skip_locks, options.max_person_traits};
  }

  EngineOptions options;
  const EngineSeams seams;
  Normalizer normalizer;
  LockPlanner planner;
  Matcher matcher;
  detail::Pool pool;
  // Null with seams.skip_statistics. After the pool: it borrows from it.
  std::unique_ptr<detail::StatsKeeper> stats;
};

}  // namespace idres
