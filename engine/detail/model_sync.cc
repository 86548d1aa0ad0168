#include "engine/detail/model_sync.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "engine/detail/merge_helpers.h"
#include "engine/detail/migration_sql.h"
#include "engine/detail/pg_array.h"
#include "engine/detail/variants.h"
#include "matcher/lock_plan.h"
#include "matcher/store_fingerprint.h"

namespace idres::detail {
namespace {

// Throws StoreError naming each exclusive type with shared values.
void RefuseSharedExclusive(Tx& tx, const std::string& exclusive) {
  const Rows shared = tx.Exec(kSharedExclusiveValues, exclusive);
  if (shared.empty()) return;
  std::string why;
  for (const auto& row : shared) {
    if (!why.empty()) why += "; ";
    why += "type '" + row[0].as<std::string>() + "': " + row[1].as<std::string>() +
           " value(s) held by more than one person";
  }
  throw StoreError("the store cannot take the model: it makes exclusive " + why +
                   ". Keep the type non-exclusive, or merge (idres reconcile) or separate those "
                   "persons first; nothing was changed");
}

// Every live person's match keys from its records (the union of each
// record's keys, engine/detail/variants.h), kSyncChunkPersons persons per
// round trip; each chunk's keys travel with the next read.
std::int64_t RebuildMatchKeys(Tx& tx, const LockPlanner& planner) {
  tx.Defer(kClearMatchKeys);
  std::int64_t after = 0, persons = 0;
  while (true) {
    const Rows rows = tx.Exec(kReadPersonChunk, after, kSyncChunkPersons);
    if (rows.empty()) return persons;
    std::vector<std::int64_t> keys, owners;
    std::map<std::int64_t, std::vector<Identifier>> records;  // by record row
    std::int64_t current = 0;  // ids start at 1
    const auto flush = [&] {
      std::vector<std::vector<Identifier>> values;
      for (auto& [row, v] : records) {
        std::sort(v.begin(), v.end());
        values.push_back(std::move(v));
      }
      for (std::int64_t key : VariantsOf(planner, values).Keys()) {
        keys.push_back(key);
        owners.push_back(current);
      }
      records.clear();
      ++persons;
    };
    for (const auto& row : rows) {
      const auto id = row[0].as<std::int64_t>();
      if (current != 0 && id != current) flush();
      current = id;
      if (!row[2].is_null()) {
        records[row[1].as<std::int64_t>()].push_back(
            {row[2].as<std::string>(), row[3].as<std::string>()});
      }
    }
    flush();
    after = current;
    if (!keys.empty()) tx.Defer(kInsertMatchKeys, BigintArray(keys), BigintArray(owners));
  }
}

}  // namespace

void SyncStoreModel(Tx& tx, const Model& model, StoreMigration& out) {
  const std::string fingerprint = StoreFingerprint(model);
  const Rows stored = tx.Exec(kReadFingerprint);
  if (!stored.empty() && stored[0][0].as<std::string>() == fingerprint) return;
  tx.Defer(kLockShapedTables);
  const std::string exclusive = TextArray(ExclusiveTypes(model));
  RefuseSharedExclusive(tx, exclusive);
  out.identifiers_reflagged = tx.Exec(kSetUniqueFlags, exclusive)[0][0].as<std::int64_t>();
  out.persons_rekeyed = RebuildMatchKeys(tx, LockPlanner(model));
  tx.Defer(kWriteFingerprint, fingerprint);
  out.model_synced = true;
}

}  // namespace idres::detail
