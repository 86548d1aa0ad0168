// MigrateStore (engine/engine.h): the schema steps a store lacks, then the
// model sync, in one transaction under the schema's advisory lock. A second
// process starting at once waits on the lock, then finds every step
// recorded and the fingerprint equal, and does nothing.
#include <spdlog/spdlog.h>

#include <chrono>
#include <set>
#include <string>

#include "engine/detail/migration_sql.h"
#include "engine/detail/model_sync.h"
#include "engine/detail/pool.h"
#include "engine/detail/sqlstate.h"
#include "engine/detail/tx.h"
#include "engine/engine.h"
#include "engine/schema_steps.h"
#include "normalize/lock_key.h"

namespace idres {
namespace {

// A deadlock with a running server's write (the table locks against its
// row locks) is broken by PostgreSQL aborting one side; ours tries again.
constexpr int kMaxAttempts = 5;

StoreMigration MigrateOnce(const std::string& url, const Model& model) {
  detail::Pool pool(url, 1, false);
  detail::Pool::Lease lease = pool.Borrow();
  // No lock_timeout: a process that starts while another migrates waits for
  // it, however long the other's rebuild takes.
  detail::Timeouts timeouts;
  timeouts.lock = std::chrono::milliseconds(0);
  const std::int64_t schema_lock[] = {LockKey("idres", "schema")};
  detail::Tx tx(lease, timeouts, schema_lock);
  tx.Defer(detail::kCreateVersionTable);
  std::set<int> done;
  for (const auto& row : tx.Exec(detail::kAppliedVersions)) {
    done.insert(static_cast<int>(row[0].as<std::int64_t>()));
  }
  const auto steps = SchemaSteps();
  if (!done.empty() && *done.rbegin() > steps.back().version) {
    throw StoreError("the store is at schema version " + std::to_string(*done.rbegin()) +
                     ", newer than this idres knows (" + std::to_string(steps.back().version) +
                     "); run the newer idres");
  }
  StoreMigration out;
  for (const SchemaStep& step : steps) {
    if (done.contains(step.version)) continue;
    tx.Script(std::string(step.sql));
    tx.Defer(detail::kRecordVersion, static_cast<std::int64_t>(step.version));
    out.applied.push_back(step.version);
    spdlog::info("store: schema step {} applied", step.name);
  }
  detail::SyncStoreModel(tx, model, out);
  tx.Commit();
  if (out.model_synced) {
    spdlog::info("store: shaped for the model ({} identifiers re-flagged, {} persons re-keyed)",
                 out.identifiers_reflagged, out.persons_rekeyed);
  }
  if (out.persons_rekeyed > 0) {
    // The rebuild rewrote match_keys whole: the planner's statistics of it
    // are those of the table before (engine/detail/stats_keeper.h).
    detail::Tx analyze(lease, detail::Timeouts{});
    analyze.Defer(detail::kAnalyzeHotTables);
    analyze.Commit();
  }
  return out;
}

}  // namespace

StoreMigration MigrateStore(const std::string& url, const Model& model) {
  for (int attempt = 1;; ++attempt) {
    try {
      return MigrateOnce(url, model);
    } catch (const EngineError&) {
      throw;
    } catch (const std::exception& e) {
      const detail::Failure f = detail::Classify(e);
      if (detail::IsTransient(f) && attempt < kMaxAttempts) {
        spdlog::warn("store: migration attempt {} failed ({}); trying again", attempt,
                     detail::RetryReason(f));
        continue;
      }
      detail::ThrowEngineError(f, e);
    }
  }
}

}  // namespace idres
