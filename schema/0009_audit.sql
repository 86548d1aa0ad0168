-- idres store, step 9 (docs/access.md, "Access and audit"): who did what.

-- Every steward and admin action (SplitPerson, NeverMatch, AlwaysMatch,
-- DeleteRecord, ForgetPerson), written by the action's own transaction:
-- the actor (a token's name), the time, the method, the stored persons it
-- acted on and the request's parameters as the engine took them. An
-- erasure's entry names the erased ids and holds no personal data. Rows are
-- appended, never updated or deleted.
CREATE TABLE audit_log (
  seq     bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The transaction's time, as the history rows it wrote beside it.
  at      timestamptz NOT NULL DEFAULT now(),
  actor   text        NOT NULL,
  action  text        NOT NULL,
  persons bigint[]    NOT NULL,
  request jsonb       NOT NULL CHECK (jsonb_typeof(request) = 'object')
);
CREATE INDEX audit_log_at ON audit_log (at);

-- The actor of each history row: an action's transaction sets the local
-- setting idres.actor first, and every row it writes takes it from there,
-- whichever statement writes it; rows written with nothing set (upserts,
-- imports, reconcile) hold NULL. Added without a default first, so that
-- existing rows stay NULL and the tables are not rewritten.
ALTER TABLE changes ADD COLUMN actor text;
ALTER TABLE changes ALTER COLUMN actor SET DEFAULT NULLIF(current_setting('idres.actor', true), '');
ALTER TABLE person_events ADD COLUMN actor text;
ALTER TABLE person_events
  ALTER COLUMN actor SET DEFAULT NULLIF(current_setting('idres.actor', true), '');

-- A steward's AlwaysMatch is a history event of both persons, as NeverMatch is.
ALTER TABLE person_events DROP CONSTRAINT person_events_kind_check;
ALTER TABLE person_events ADD CONSTRAINT person_events_kind_check
  CHECK (kind IN ('record_added', 'record_replaced', 'record_deleted', 'judged_never',
                  'judged_always'));
