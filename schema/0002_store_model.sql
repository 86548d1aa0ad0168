-- idres store, step 2 (docs/operations.md, "The store and its migrations"): what the
-- model looked like when the stored data were last shaped by it. Two things
-- in the store follow the model, not the records: identifiers.is_unique
-- (whether the value's type is exclusive) and match_keys (since the matching
-- model, the blocking keys of engine/detail/merge_helpers.h's PersonMatchKeys,
-- no longer step 1's minimal weak combinations). At start-up the engine
-- compares this row with the model it runs and, when they differ (or the row
-- is missing, as in a store from before the model), resets is_unique and
-- rebuilds match_keys, then writes the row (engine/detail/model_sync.h).
CREATE TABLE idres_store_model (
  -- One row: the store has one model.
  id          boolean     PRIMARY KEY DEFAULT true CHECK (id),
  -- matcher/store_fingerprint.h: the exclusive types, the blocking rules
  -- and the version of the key derivations, as readable text.
  fingerprint text        NOT NULL,
  synced_at   timestamptz NOT NULL DEFAULT now()
);
