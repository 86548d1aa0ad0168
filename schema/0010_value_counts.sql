-- idres store, step 10 (docs/design.md, "The count of a value's holders"):
-- how many persons hold each value, kept beside identifiers so that the
-- candidate read probes one row instead of counting every holder, and
-- without a row any upsert updates (records sharing only a common value
-- never wait on each other).

-- The key of a value's count: a 64-bit hash of (type, value), so the counts
-- hold no value. Byte-wise (collation "C"), as identifiers compares values.
CREATE FUNCTION idres_value_hash(type text, value text) RETURNS bigint
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN hashtextextended((type || chr(31) || value) COLLATE "C", 0);

-- Persons holding each value as of the last fold; only the folder writes
-- it (engine/detail/stats_keeper.h), and deletes a count that reaches 0 in
-- the same transaction. Room on each page so that a fold's updates stay on
-- their page.
CREATE TABLE value_counts (
  h bigint PRIMARY KEY,
  n bigint NOT NULL CHECK (n >= 0)
) WITH (fillfactor = 70);

-- Changes since the last fold, appended by the transaction that changed
-- identifiers (the triggers below) and deleted by the fold that adds them
-- to value_counts. A value's count is its n plus the sum of its deltas.
-- Each fold empties it; vacuum keeps its pages rather than truncating them,
-- so the planner, which scales its estimate by the pages a table has when
-- it plans, never plans the deltas' probe for an empty table that then
-- fills up.
CREATE TABLE value_count_deltas (
  h bigint NOT NULL,
  d integer NOT NULL
) WITH (vacuum_truncate = false);
CREATE INDEX value_count_deltas_h ON value_count_deltas (h);

-- One delta per hash a statement changed, in the statement's transaction:
-- every path that adds or removes a holder writes identifiers, so the count
-- follows them all (a rolled-back write rolls its deltas back with it).
CREATE FUNCTION idres_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO value_count_deltas (h, d)
  SELECT idres_value_hash(type, value), count(*) FROM new_rows GROUP BY 1;
  RETURN NULL;
END $$;

CREATE FUNCTION idres_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO value_count_deltas (h, d)
  SELECT idres_value_hash(type, value), -count(*) FROM old_rows GROUP BY 1;
  RETURN NULL;
END $$;

-- An update that keeps each row's type and value (is_unique) nets to
-- nothing and writes nothing.
CREATE FUNCTION idres_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO value_count_deltas (h, d)
  SELECT h, sum(d) FROM (
    SELECT idres_value_hash(type, value) AS h, -1 AS d FROM old_rows
    UNION ALL SELECT idres_value_hash(type, value), 1 FROM new_rows) c
  GROUP BY h HAVING sum(d) <> 0;
  RETURN NULL;
END $$;

CREATE TRIGGER identifiers_count_inserted AFTER INSERT ON identifiers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION idres_count_inserted();
CREATE TRIGGER identifiers_count_deleted AFTER DELETE ON identifiers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION idres_count_deleted();
CREATE TRIGGER identifiers_count_updated AFTER UPDATE ON identifiers
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION idres_count_updated();

-- A store's existing holders, counted once.
INSERT INTO value_counts (h, n)
SELECT idres_value_hash(type, value), count(*) FROM identifiers GROUP BY 1;
