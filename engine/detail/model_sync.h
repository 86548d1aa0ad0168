// SyncStoreModel: the part of MigrateStore (engine/engine.h) that brings
// what the model shapes in the store in line with the model: each
// identifier's is_unique (its type is exclusive) and each live person's
// match keys (the blocking keys of its values). It compares the store's
// fingerprint (step 2's idres_store_model) with the model's
// (matcher/store_fingerprint.h) and does nothing when they agree; otherwise
// it locks identifiers and match_keys against writers, refuses a model that
// makes a shared type exclusive, resets the flags in one statement, rebuilds
// match_keys chunk by chunk (bounded memory, one transaction) with
// PersonMatchKeys, the derivation every upsert writes with, and records the
// fingerprint. docs/operations.md, "The store and its migrations".
// Thread-safety: as the Tx it runs in. Internal to engine/.
#pragma once

#include "engine/detail/tx.h"
#include "engine/engine.h"

namespace idres::detail {

// Persons read and re-keyed per round trip of the rebuild.
inline constexpr std::int64_t kSyncChunkPersons = 1000;

// Runs inside `tx`, which must hold the schema lock. Fills `out`'s
// model_synced, identifiers_reflagged and persons_rekeyed. Throws
// StoreError when a type `model` makes exclusive has values several
// persons hold (`tx` then rolls back: nothing changed).
void SyncStoreModel(Tx& tx, const Model& model, StoreMigration& out);

}  // namespace idres::detail
