// Metrics: the service's Prometheus metrics, rendered in the text exposition
// format for GET /metrics. It is also the engine's EngineObserver, so lock
// waits, lock timeouts, retries, upsert outcomes and the groups of queued
// upserts come straight from the engine.
//
// Thread-safety: every method may be called from any thread at once.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "engine/observer.h"

namespace idres::api {

class Metrics final : public EngineObserver {
 public:
  Metrics();
  ~Metrics() override;

  // One finished RPC: its method name ("Upsert", ...), Connect code name
  // ("ok" on success) and duration in seconds.
  void OnRequest(std::string_view method, std::string_view code, double seconds);

  void OnLockWait(double seconds) override;
  void OnLockTimeout() override;
  void OnRetry(std::string_view reason) override;
  void OnOutcome(Outcome outcome) override;
  void OnUpsertGroup(std::size_t records, bool failed) override;
  void OnUpsertsQueued(std::size_t queued) override;

  // All metrics as Prometheus text; `connections_in_use` and `pool_size` are
  // the gauges read from the pool at scrape time.
  std::string Render(int connections_in_use, int pool_size) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace idres::api
