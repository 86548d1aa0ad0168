#include "engine/engine.h"

#include <spdlog/spdlog.h>
#include <algorithm>
#include <chrono>
#include <limits>
#include <random>
#include <thread>

#include "engine/detail/engine_impl.h"
#include "engine/detail/sqlstate.h"
#include "engine/detail/store.h"
#include "engine/detail/upsert_queue.h"

namespace idres {
namespace {

void Backoff(int attempt, const Deadline& deadline) {
  thread_local std::mt19937 rng{std::random_device{}()};
  // Jitter spreads the retries of transactions that collided once, so they
  // do not collide again in lockstep.
  const int cap_ms = std::min(100, 2 << std::min(attempt, 6));
  auto pause = std::chrono::milliseconds(std::uniform_int_distribution<int>(1, cap_ms)(rng));
  if (const auto left = deadline.Remaining()) pause = std::min(pause, *left);
  std::this_thread::sleep_for(pause);
}

// Whether `f` is the deadline's own timeouts firing: its statement timeout,
// or a lock timeout the deadline had shortened. Then the caller's time is
// up, not the lock's.
bool DeadlineFired(detail::Failure f, const detail::Timeouts& used,
                   std::chrono::milliseconds configured_lock_timeout) {
  if (!used.statement) return false;
  return f == detail::Failure::kCanceled ||
         (f == detail::Failure::kBusy && used.lock < configured_lock_timeout);
}

constexpr std::chrono::milliseconds kMaxPgTimeout{std::numeric_limits<std::int32_t>::max()};

void ThrowIfPassed(const Deadline& deadline) {
  if (deadline.Passed()) throw DeadlineError("the deadline passed; nothing was written");
}

}  // namespace

Engine::Impl::Impl(EngineOptions o, EngineSeams s)
    : options(std::move(o)),
      seams(std::move(s)),
      normalizer(options.model.Normalizing(options.normalizer)),
      planner(options.model),
      matcher(options.model),
      pool(options.database_url, options.pool_size, options.prepared_statements),
      stats(seams.skip_statistics
                ? nullptr
                : std::make_unique<detail::StatsKeeper>(pool, detail::StatsKeeper::Options{})) {
  if (const std::string problem = options.model.Problem(); !problem.empty()) {
    throw std::invalid_argument("the matching model is not usable: " + problem);
  }
  if (seams.skip_locks) {
    spdlog::warn(
        "UNSAFE: idres engine started with EngineSeams::skip_locks: "
        "no advisory or person locks; concurrent upserts WILL create duplicates "
        "and lose updates. Tests and benchmark baselines only.");
  }
  if (seams.skip_sequencer) {
    spdlog::warn(
        "UNSAFE: idres engine started with EngineSeams::skip_sequencer: "
        "ListChanges lists change rows by seq; a change that commits late is never listed. "
        "Tests only.");
  }
}

void Engine::Impl::RunTx(const std::function<void(detail::Tx&)>& fn, const Deadline& deadline) {
  RunAttempts(fn, {}, false, deadline);
}

void Engine::Impl::RunLockedTx(std::span<const std::int64_t> lock_keys,
                               const std::function<void(detail::Tx&)>& fn,
                               const Deadline& deadline) {
  RunAttempts(fn, seams.skip_locks ? std::span<const std::int64_t>() : lock_keys, true, deadline);
}

detail::Timeouts Engine::Impl::TimeoutsFor(const Deadline& deadline) const {
  const auto left = deadline.Remaining();
  if (!left) return {options.lock_timeout, std::nullopt, deadline};
  // 0 would mean "no timeout" to PostgreSQL, and it takes no more than
  // INT_MAX ms (a Connect-Timeout-Ms may ask for ten digits).
  const auto budget = std::clamp(*left, std::chrono::milliseconds(1), kMaxPgTimeout);
  return {std::min(options.lock_timeout, budget), budget, deadline};
}

void Engine::Impl::RunAttempts(const std::function<void(detail::Tx&)>& fn,
                               std::span<const std::int64_t> lock_keys, bool upsert_locks,
                               const Deadline& deadline) {
  for (int attempt = 0;; ++attempt) {
    ThrowIfPassed(deadline);
    std::string_view reason;
    detail::Timeouts timeouts;
    try {
      detail::Pool::Lease lease = pool.Borrow(deadline);
      const auto start = std::chrono::steady_clock::now();
      timeouts = TimeoutsFor(deadline);
      // Lock wait: until the key locks are answered, which with prepared
      // statements is together with the transaction's first statement.
      std::function<void()> on_begun;
      if (upsert_locks) on_begun = [&] { AfterKeyLocks(lock_keys, start); };
      detail::Tx tx(lease, timeouts, lock_keys, std::move(on_begun));
      fn(tx);
      tx.Commit();
      return;
    } catch (const EngineError&) {
      throw;
    } catch (const detail::KeysGrewError&) {
      throw;  // the caller plans the keys again (engine/upsert.cc)
    } catch (const detail::VanishedPersonError& e) {
      if (attempt >= options.max_retries) throw ConflictError(e.what());
      reason = "vanished_person";
    } catch (const std::exception& e) {
      const detail::Failure f = detail::Classify(e);
      if (DeadlineFired(f, timeouts, options.lock_timeout)) {
        throw DeadlineError(
            "the deadline passed while waiting for the database; nothing was written");
      }
      if (!detail::IsTransient(f) || attempt >= options.max_retries) {
        if (f == detail::Failure::kBusy && options.observer) options.observer->OnLockTimeout();
        detail::ThrowEngineError(f, e);
      }
      reason = detail::RetryReason(f);
    }
    if (options.observer) options.observer->OnRetry(reason);
    Backoff(attempt, deadline);
  }
}

std::optional<std::string> Engine::OverLimit(const Record& record) const {
  return RecordLimits{impl_->options.max_identifiers, impl_->options.max_traits}.Refusal(record);
}

detail::PreparedRecord Engine::Impl::Prepare(const Record& record) const {
  return detail::PrepareRecord(record, normalizer, planner,
                               {options.max_identifiers, options.max_traits});
}

void Engine::Impl::LockKeys(detail::Tx& tx, std::span<const std::int64_t> keys) {
  const auto start = std::chrono::steady_clock::now();
  if (!seams.skip_locks) detail::LockKeys(tx, keys);
  AfterKeyLocks(keys, start);
}

void Engine::Impl::AfterKeyLocks(std::span<const std::int64_t> keys,
                                 std::chrono::steady_clock::time_point start) {
  if (options.observer && !seams.skip_locks) {
    options.observer->OnLockWait(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (seams.after_key_locks) seams.after_key_locks(keys);
}

namespace {

// Submit()'s runners: as configured, else half the pool.
int RunnersOf(const EngineOptions& o) {
  return o.upsert_runners > 0 ? o.upsert_runners : std::max(1, o.pool_size / 2);
}

}  // namespace

Engine::Engine(EngineOptions options) : Engine(std::move(options), EngineSeams{}) {}

Engine::Engine(EngineOptions options, EngineSeams seams)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(seams))),
      queue_(std::make_unique<detail::UpsertQueue>(
          [this](std::span<const Record> records, const Deadline& deadline,
                 detail::CommittedResults& committed) {
            return Batch(records, nullptr, deadline, &committed);
          },
          RunnersOf(impl_->options), impl_->options.group_max_records,
          impl_->options.group_max_identifiers, impl_->options.observer.get())) {}

Engine::~Engine() = default;

std::unique_ptr<Engine> EngineTesting::Make(EngineOptions options, EngineSeams seams) {
  return std::unique_ptr<Engine>(new Engine(std::move(options), std::move(seams)));
}

std::int64_t EngineTesting::SettleStatistics(Engine& engine) {
  if (!engine.impl_->stats) return 0;
  engine.impl_->stats->Settle();
  return engine.impl_->stats->rounds();
}

std::vector<std::string> EngineTesting::ExplainCandidateRead(Engine& engine,
                                                             std::span<const Identifier> values,
                                                             std::span<const std::int64_t> keys) {
  std::vector<std::string> lines;
  Engine::Impl& impl = *engine.impl_;
  impl.RunTx([&](detail::Tx& tx) {
    lines = detail::ExplainCandidateRead(tx, values, keys, impl.options.model,
                                         impl.options.prepared_statements);
  });
  return lines;
}

std::vector<std::string> EngineTesting::ExplainReceiptRead(Engine& engine, std::int64_t job,
                                                           std::span<const std::int64_t> items) {
  std::vector<std::string> lines;
  Engine::Impl& impl = *engine.impl_;
  impl.RunTx([&](detail::Tx& tx) {
    lines = detail::ExplainReceiptRead(tx, job, items, impl.options.prepared_statements);
  });
  return lines;
}

int Engine::ConnectionsInUse() const { return impl_->pool.InUse(); }

const EngineOptions& Engine::options() const { return impl_->options; }

void Engine::Submit(Record record, const Deadline& deadline, UpsertCallback done) {
  queue_->Submit(std::move(record), deadline, std::move(done));
}

}  // namespace idres
