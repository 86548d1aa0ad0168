-- idres store, step 1 (docs/operations.md, "The store and its migrations"): the
-- schema.sql of the store before the matching model, unchanged but for this
-- header and the version table, which the migration runner creates and fills
-- itself (engine/migrate.cc). A store written by that schema.sql already
-- records version 1 and never runs this again. A step that has run on some
-- store is never edited: the store changes by a new step. Text key columns
-- use COLLATE "C": bytewise, the same as the lock keys.

-- A person. Ids come from an identity column and are never reused.
CREATE TABLE IF NOT EXISTS persons (
  id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  traits     jsonb       NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT persons_traits_object CHECK (jsonb_typeof(traits) = 'object')
);
-- Every upsert that matches rewrites its person's row (traits, updated_at).
-- Room left on each page lets that new row version stay on the page (a HOT
-- update): no new entry in persons_pkey, and fewer pages written.
ALTER TABLE persons SET (fillfactor = 85);

-- The normalized identifiers a person holds.
CREATE TABLE IF NOT EXISTS identifiers (
  person_id  bigint      NOT NULL REFERENCES persons (id),
  type       text        COLLATE "C" NOT NULL,
  value      text        COLLATE "C" NOT NULL,
  is_unique  boolean     NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (person_id, type, value)
);
-- Last line of defence: a value of a unique type belongs to one person, even
-- if a code path ever forgot to lock.
CREATE UNIQUE INDEX IF NOT EXISTS identifiers_unique_value
  ON identifiers (type, value) WHERE is_unique;
-- Candidate reads by value (non-unique types too).
CREATE INDEX IF NOT EXISTS identifiers_type_value ON identifiers (type, value);

-- Composite keys of each minimal combination of a person's weak values that
-- reaches the match threshold (docs/design.md, "Lock keys"): the candidate read
-- for weak attributes goes through here, never through a scan of everyone
-- who shares one postal code.
CREATE TABLE IF NOT EXISTS match_keys (
  key       bigint NOT NULL,
  person_id bigint NOT NULL REFERENCES persons (id),
  PRIMARY KEY (key, person_id)
);
CREATE INDEX IF NOT EXISTS match_keys_person ON match_keys (person_id);

-- Ids merged away: each keeps resolving to its survivor forever. When a
-- survivor is itself merged later, its redirects are repointed, so one hop
-- always reaches a live person.
CREATE TABLE IF NOT EXISTS merges (
  absorbed_id bigint      PRIMARY KEY,
  survivor_id bigint      NOT NULL REFERENCES persons (id),
  merged_at   timestamptz NOT NULL DEFAULT now(),
  reason      text        NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS merges_survivor ON merges (survivor_id);

-- Receipts of batch imports: (job, item) is written in the same transaction
-- as the record it names, so a resumed import knows exactly which records are
-- already in the store and does not apply them twice (a record without a
-- strong identifier would otherwise become a second person).
CREATE TABLE IF NOT EXISTS import_receipts (
  job  bigint NOT NULL,
  item bigint NOT NULL,
  PRIMARY KEY (job, item)
);
