// EngineTesting: the engine's test seams, kept out of EngineOptions so that
// no production configuration can switch them on. Only the tests (to show
// every race breaking without the locks or the change feed's sequencer, and
// to line racers up inside the locked section) and the benchmark's naive
// baseline include this header.
//
// Thread-safety: as Engine; `after_key_locks` is called from the threads
// that run transactions, possibly many at once.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace idres {

struct EngineSeams {
  // UNSAFE. Skips the advisory and person locks: the naive
  // check-then-insert. The engine logs a warning when it starts with it.
  bool skip_locks = false;
  // Called inside every upsert transaction right after its key locks are
  // granted (with skip_locks: after BEGIN), with the sorted keys.
  std::function<void(std::span<const std::int64_t>)> after_key_locks;
  // UNSAFE. ListChanges hands out no positions and lists the change rows by
  // seq, as if seq were the position: a change whose transaction commits
  // after a later one was listed is never seen (docs/batch.md, "The change
  // feed"). The engine logs a warning when it starts with it.
  bool skip_sequencer = false;
  // The engine keeps no planner statistics (engine/detail/stats_keeper.h):
  // the store's tables are analyzed only by autovacuum, as before the
  // engine did it.
  bool skip_statistics = false;
};

class EngineTesting {
 public:
  // An engine with `seams`; otherwise as Engine(options).
  static std::unique_ptr<Engine> Make(EngineOptions options, EngineSeams seams);

  // Returns once the engine's planner statistics are up to date with what
  // it wrote (no ANALYZE due or running); how many rounds analyzed so far.
  static std::int64_t SettleStatistics(Engine& engine);

  // EXPLAIN of the candidate read (step 4) for `values` and blocking keys
  // `keys`, as one of the engine's own connections would run it: with
  // prepared statements, its cached generic plan. One line per row.
  static std::vector<std::string> ExplainCandidateRead(Engine& engine,
                                                       std::span<const Identifier> values,
                                                       std::span<const std::int64_t> keys);

  // EXPLAIN of the read of a batch's receipts (which of `items` of `job` are
  // stored), as ExplainCandidateRead.
  static std::vector<std::string> ExplainReceiptRead(Engine& engine, std::int64_t job,
                                                     std::span<const std::int64_t> items);
};

}  // namespace idres
