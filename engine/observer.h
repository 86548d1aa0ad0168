// EngineObserver: what the engine reports about itself while it works, for
// metrics. The default does nothing. Implementations must be thread-safe:
// every method may be called from many engine threads at once.
#pragma once

#include <cstddef>
#include <string_view>

#include "engine/record.h"

namespace idres {

class EngineObserver {
 public:
  virtual ~EngineObserver() = default;
  // Seconds the advisory-lock statement of one transaction waited (for the
  // upserts: the first round trip, BEGIN and the key locks together).
  virtual void OnLockWait(double /*seconds*/) {}
  // A lock was not granted within lock_timeout.
  virtual void OnLockTimeout() {}
  // A transaction is retried; reason: "deadlock", "serialization",
  // "unique_violation", "vanished_person".
  virtual void OnRetry(std::string_view /*reason*/) {}
  // One upsert committed with this outcome.
  virtual void OnOutcome(Outcome /*outcome*/) {}
  // Engine::Submit: `records` queued upserts were applied together in one
  // group (`failed`: it failed, and each was applied again alone).
  virtual void OnUpsertGroup(std::size_t /*records*/, bool /*failed*/) {}
  // Engine::Submit: `queued` upserts wait for a runner now.
  virtual void OnUpsertsQueued(std::size_t /*queued*/) {}
};

}  // namespace idres
