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
  // after a later one was listed is never seen (README.md, "The change
  // feed"). The engine logs a warning when it starts with it.
  bool skip_sequencer = false;
};

class EngineTesting {
 public:
  // An engine with `seams`; otherwise as Engine(options).
  static std::unique_ptr<Engine> Make(EngineOptions options, EngineSeams seams);
};

}  // namespace idres
