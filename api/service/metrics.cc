#include "api/service/metrics.h"

#include <atomic>
#include <map>
#include <utility>

#include "api/service/histogram.h"
#include "base/mutex.h"
#include "engine/outcome_counts.h"

namespace idres::api {

struct Metrics::Impl {
  mutable Mutex mu;
  // (method, code) -> count
  std::map<std::pair<std::string, std::string>, std::uint64_t, std::less<>> requests GUARDED_BY(mu);
  // by method
  std::map<std::string, std::unique_ptr<Histogram>, std::less<>> latency GUARDED_BY(mu);
  // by reason
  std::map<std::string, std::uint64_t, std::less<>> retries GUARDED_BY(mu);
  std::atomic<std::uint64_t> outcomes[std::size(kOutcomes)] = {};
  std::atomic<std::uint64_t> lock_timeouts{0};
  std::atomic<std::uint64_t> groups{0}, grouped{0}, group_failures{0}, queued{0};
  Histogram lock_wait{Histogram::LatencyBounds()};
};

namespace {

void Header(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out += "# HELP " + std::string(name) + " " + std::string(help) + "\n";
  out += "# TYPE " + std::string(name) + " " + std::string(type) + "\n";
}

// A metric of one value, without labels.
void Single(std::string& out, std::string_view name, std::string_view type, std::string_view help,
            std::uint64_t value) {
  Header(out, name, type, help);
  out += std::string(name) + " " + std::to_string(value) + "\n";
}

}  // namespace

Metrics::Metrics() : impl_(std::make_unique<Impl>()) {}
Metrics::~Metrics() = default;

void Metrics::OnRequest(std::string_view method, std::string_view code, double seconds) {
  Histogram* histogram = nullptr;
  {
    MutexLock lock(&impl_->mu);
    ++impl_->requests[{std::string(method), std::string(code)}];
    auto& slot = impl_->latency[std::string(method)];
    if (!slot) slot = std::make_unique<Histogram>(Histogram::LatencyBounds());
    histogram = slot.get();  // never erased, so safe to use unlocked
  }
  histogram->Observe(seconds);
}

void Metrics::OnLockWait(double seconds) { impl_->lock_wait.Observe(seconds); }

void Metrics::OnLockTimeout() { impl_->lock_timeouts.fetch_add(1, std::memory_order_relaxed); }

void Metrics::OnRetry(std::string_view reason) {
  MutexLock lock(&impl_->mu);
  ++impl_->retries[std::string(reason)];
}

void Metrics::OnOutcome(Outcome outcome) {
  impl_->outcomes[static_cast<int>(outcome)].fetch_add(1, std::memory_order_relaxed);
}

void Metrics::OnUpsertGroup(std::size_t records, bool failed) {
  impl_->groups.fetch_add(1, std::memory_order_relaxed);
  impl_->grouped.fetch_add(records, std::memory_order_relaxed);
  if (failed) impl_->group_failures.fetch_add(1, std::memory_order_relaxed);
}

void Metrics::OnUpsertsQueued(std::size_t queued) {
  impl_->queued.store(queued, std::memory_order_relaxed);
}

std::string Metrics::Render(int connections_in_use, int pool_size) const {
  std::string out;
  MutexLock lock(&impl_->mu);
  Header(out, "idres_rpc_requests_total", "counter", "RPCs finished, by method and Connect code.");
  for (const auto& [key, n] : impl_->requests) {
    out += "idres_rpc_requests_total{method=\"" + key.first + "\",code=\"" + key.second + "\"} " +
           std::to_string(n) + "\n";
  }
  Header(out, "idres_rpc_duration_seconds", "histogram", "RPC latency, by method.");
  for (const auto& [method, histogram] : impl_->latency) {
    out += histogram->Render("idres_rpc_duration_seconds", "method=\"" + method + "\"");
  }
  Header(out, "idres_upsert_outcomes_total", "counter", "Committed upserts, by outcome.");
  for (const Outcome outcome : kOutcomes) {
    out +=
        "idres_upsert_outcomes_total{outcome=\"" + std::string(OutcomeName(outcome)) + "\"} " +
        std::to_string(impl_->outcomes[static_cast<int>(outcome)].load(std::memory_order_relaxed)) +
        "\n";
  }
  Header(out, "idres_lock_wait_seconds", "histogram",
         "Time one transaction waited for its advisory locks.");
  out += impl_->lock_wait.Render("idres_lock_wait_seconds", "");
  Single(out, "idres_lock_timeouts_total", "counter", "Locks not granted within lock_timeout.",
         impl_->lock_timeouts.load(std::memory_order_relaxed));
  Header(out, "idres_retries_total", "counter", "Transactions retried, by reason.");
  for (const auto& [reason, n] : impl_->retries) {
    out += "idres_retries_total{reason=\"" + reason + "\"} " + std::to_string(n) + "\n";
  }
  Single(out, "idres_upsert_groups_total", "counter",
         "Transactions that applied queued single upserts together.", impl_->groups.load());
  Single(out, "idres_upserts_grouped_total", "counter",
         "Single upserts applied in such a transaction.", impl_->grouped.load());
  Single(out, "idres_upsert_group_failures_total", "counter",
         "Such transactions that failed; their upserts were applied again, each alone.",
         impl_->group_failures.load());
  Single(out, "idres_upserts_queued", "gauge", "Single upserts waiting for a connection now.",
         impl_->queued.load());
  Single(out, "idres_pool_connections_in_use", "gauge", "Database connections borrowed now.",
         connections_in_use);
  Single(out, "idres_pool_connections", "gauge", "Database connections in the pool.", pool_size);
  return out;
}

}  // namespace idres::api
