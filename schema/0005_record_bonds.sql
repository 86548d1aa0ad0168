-- idres store, step 5 (docs/design.md, "Records, judgements and the change
-- feed"): a steward's AlwaysMatch outlives its merge. The records of the two
-- persons it joined get one bond; whenever a person's records are replayed
-- (a record of it deleted or replaced), records of one bond stay in one
-- part, whatever the model says of them. A bond only acts among the records
-- of one person: records moved apart by a split keep theirs, inert, until a
-- steward joins them again (which bonds them anew).
CREATE SEQUENCE record_bonds;
ALTER TABLE records ADD COLUMN bond bigint;
