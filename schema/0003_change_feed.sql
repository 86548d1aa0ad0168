-- idres store, step 3 (docs/batch.md, "The change feed"): every change to a
-- person, appended in the transaction that makes it, for downstream systems.
-- A row holds ids, a kind and a time: no personal data.

-- seq orders the rows as they were inserted: writers insert them in the
-- statements that travel with their COMMIT, after every lock, so a change
-- that depends on another has the larger seq. CACHE 1 (the default, said
-- here because it matters): a session caching values would hand out a
-- smaller one after a larger. seq is not the position: a row with seq 41
-- can commit after one with 42. position is handed out after commit by the
-- sequencer (engine/changes.cc), dense from 1, to committed rows only.
-- No foreign key to persons: the person may be gone (merged away, erased).
CREATE TABLE changes (
  seq        bigint      GENERATED ALWAYS AS IDENTITY (CACHE 1) PRIMARY KEY,
  position   bigint      UNIQUE,
  person_id  bigint      NOT NULL,
  kind       text        NOT NULL
             CHECK (kind IN ('created', 'updated', 'merged', 'split', 'erased')),
  -- merged: the survivor; split: the person split off. NULL otherwise.
  other_id   bigint,
  changed_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
-- What the sequencer numbers next, in seq order; and the reader's cheap
-- check whether anything waits for a position.
CREATE INDEX changes_unnumbered ON changes (seq) WHERE position IS NULL;

-- The last position the sequencer handed out. One row, written by the
-- sequencer alone (under its advisory lock): no writer touches it.
CREATE TABLE changes_head (
  id            boolean PRIMARY KEY DEFAULT true CHECK (id),
  last_position bigint  NOT NULL CHECK (last_position >= 0)
);
INSERT INTO changes_head (last_position) VALUES (0);
