-- idres store, step 10 (docs/operations.md, "PostgreSQL settings"; BENCHMARKS.md,
-- "The million-record import: autovacuum behind the inserts").

-- The tables every upsert writes grow mostly by inserts. The candidate
-- read's probes of match_keys and identifiers and the read of a batch's
-- receipts are index-only scans, which visit the table for every entry on
-- a page the visibility map does not mark all-visible; only VACUUM marks
-- pages (and sets the hint bits every later reader would otherwise check).
-- By default autovacuum vacuums an insert-only table after inserts of a
-- fifth of its rows, so behind a bulk load the share of unmarked pages
-- grows with the store. A hundredth keeps autovacuum close behind the
-- inserts; each run reads only the pages written since the last.
ALTER TABLE persons SET (autovacuum_vacuum_insert_scale_factor = 0.01);
ALTER TABLE identifiers SET (autovacuum_vacuum_insert_scale_factor = 0.01);
ALTER TABLE match_keys SET (autovacuum_vacuum_insert_scale_factor = 0.01);
ALTER TABLE records SET (autovacuum_vacuum_insert_scale_factor = 0.01);
ALTER TABLE import_receipts SET (autovacuum_vacuum_insert_scale_factor = 0.01);
ALTER TABLE changes SET (autovacuum_vacuum_insert_scale_factor = 0.01);
ALTER TABLE person_events SET (autovacuum_vacuum_insert_scale_factor = 0.01);
