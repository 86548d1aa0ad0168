#include "engine/engine.h"

#include <spdlog/spdlog.h>
#include <chrono>
#include <random>
#include <thread>

#include "engine/detail/engine_impl.h"
#include "engine/detail/sqlstate.h"
#include "engine/detail/store.h"

namespace idres {
namespace {

void Backoff(int attempt) {
  thread_local std::mt19937 rng{std::random_device{}()};
  // Jitter spreads the retries of transactions that collided once, so they
  // do not collide again in lockstep.
  const int cap_ms = std::min(100, 2 << std::min(attempt, 6));
  std::this_thread::sleep_for(
      std::chrono::milliseconds(std::uniform_int_distribution<int>(1, cap_ms)(rng)));
}

}  // namespace

Engine::Impl::Impl(EngineOptions o)
    : options(std::move(o)),
      normalizer(options.normalizer),
      planner(options.match),
      matcher(options.match),
      pool(options.database_url, options.pool_size, options.prepared_statements) {
  if (options.unsafe_skip_locks_for_tests_only) {
    spdlog::warn(
        "UNSAFE: idres engine started with unsafe_skip_locks_for_tests_only: "
        "no advisory or person locks; concurrent upserts WILL create duplicates "
        "and lose updates. Tests and benchmark baselines only.");
  }
}

void Engine::Impl::RunTx(const std::function<void(detail::Tx&)>& fn) { RunAttempts(fn, {}, false); }

void Engine::Impl::RunLockedTx(std::span<const std::int64_t> lock_keys,
                               const std::function<void(detail::Tx&)>& fn) {
  RunAttempts(fn, lock_keys, true);
}

void Engine::Impl::RunAttempts(const std::function<void(detail::Tx&)>& fn,
                               std::span<const std::int64_t> lock_keys, bool locked) {
  if (options.unsafe_skip_locks_for_tests_only) lock_keys = {};
  for (int attempt = 0;; ++attempt) {
    std::string_view reason;
    try {
      detail::Pool::Lease lease = pool.Borrow();
      const auto start = std::chrono::steady_clock::now();
      // Lock wait: until the key locks are answered, which with prepared
      // statements is together with the transaction's first statement.
      std::function<void()> on_begun;
      if (locked) on_begun = [&] { AfterKeyLocks(lock_keys, start); };
      detail::Tx tx(lease, options.prepared_statements, options.lock_timeout, lock_keys,
                    std::move(on_begun));
      fn(tx);
      tx.Commit();
      return;
    } catch (const EngineError&) {
      throw;
    } catch (const detail::VanishedPersonError& e) {
      if (attempt >= options.max_retries) throw ConflictError(e.what());
      reason = "vanished_person";
    } catch (const std::exception& e) {
      const detail::Failure f = detail::Classify(e);
      if (!detail::IsTransient(f) || attempt >= options.max_retries) {
        if (f == detail::Failure::kBusy && options.observer) options.observer->OnLockTimeout();
        detail::ThrowEngineError(f, e);
      }
      reason = detail::RetryReason(f);
    }
    if (options.observer) options.observer->OnRetry(reason);
    Backoff(attempt);
  }
}

detail::PreparedRecord Engine::Impl::Prepare(const Record& record) const {
  return detail::PrepareRecord(record, normalizer, planner, options.max_identifiers);
}

void Engine::Impl::LockKeys(detail::Tx& tx, std::span<const std::int64_t> keys) {
  const auto start = std::chrono::steady_clock::now();
  if (!options.unsafe_skip_locks_for_tests_only) detail::LockKeys(tx, keys);
  AfterKeyLocks(keys, start);
}

void Engine::Impl::AfterKeyLocks(std::span<const std::int64_t> keys,
                                 std::chrono::steady_clock::time_point start) {
  if (options.observer && !options.unsafe_skip_locks_for_tests_only) {
    options.observer->OnLockWait(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (options.after_key_locks_for_tests) options.after_key_locks_for_tests(keys);
}

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Engine::~Engine() = default;

UpsertResult Engine::Upsert(const Record& record) {
  const detail::PreparedRecord prepared = impl_->Prepare(record);
  if (prepared.error) {
    UpsertResult r;
    r.error = prepared.error;
    r.rejected = prepared.rejected;
    return r;
  }
  UpsertResult result;
  impl_->RunLockedTx(prepared.plan.lock_keys, [&](detail::Tx& tx) {
    result = detail::ApplyRecord(tx, prepared, impl_->Context());
  });
  if (impl_->options.observer) impl_->options.observer->OnOutcome(result.outcome);
  return result;
}

int Engine::ConnectionsInUse() const { return impl_->pool.InUse(); }

const EngineOptions& Engine::options() const { return impl_->options; }

}  // namespace idres
