-- idres store, step: records (docs/design.md, "Records, judgements and the change
-- feed"). A person is the set of its records: what one source said about one
-- thing, under (source, record_id). identifiers stays the person-level index
-- the candidate read and the unique index use, derived from the records: a
-- person holds a value while one of its records does.

CREATE TABLE records (
  id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source     text        COLLATE "C" NOT NULL,
  record_id  text        COLLATE "C" NOT NULL,
  person_id  bigint      NOT NULL REFERENCES persons (id),
  -- The normalized values the record contributed, as parallel arrays: a
  -- record is written and read whole, never searched by value.
  types      text[]      NOT NULL,
  vals       text[]      NOT NULL,
  traits     jsonb       NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT records_identity UNIQUE (source, record_id),
  CONSTRAINT records_values_pair CHECK (cardinality(types) = cardinality(vals)),
  CONSTRAINT records_traits_object CHECK (jsonb_typeof(traits) = 'object')
);
CREATE INDEX records_person ON records (person_id);

-- Persons that are gone without a survivor: every record of it was deleted,
-- or it was erased. No personal data: the id, when, and which of the two.
CREATE TABLE removed_persons (
  person_id  bigint      PRIMARY KEY,
  removed_at timestamptz NOT NULL DEFAULT now(),
  why        text        NOT NULL CHECK (why IN ('emptied', 'erased'))
);

-- A steward's judgements between persons, each stored in both directions
-- (person_id, other_id) and (other_id, person_id): 'never' — no upsert,
-- batch or reconcile merges them; 'always' — they were merged by a steward.
-- A merge repoints the absorbed persons' rows to the survivor, so a
-- judgement survives later merges of either side.
CREATE TABLE judgements (
  person_id bigint      NOT NULL,
  other_id  bigint      NOT NULL,
  kind      text        NOT NULL CHECK (kind IN ('never', 'always')),
  made_at   timestamptz NOT NULL DEFAULT now(),
  CHECK (person_id <> other_id)
);
CREATE INDEX judgements_person ON judgements (person_id);

-- A person's history beyond the change feed (Engine::GetPersonHistory): its
-- records added, replaced and deleted, and the judgements said about it.
-- Written by the statements that make the change. Its merges are in
-- merges (with the score breakdown in reason), its creation, splits and
-- erasure in changes. An erasure deletes its rows.
CREATE TABLE person_events (
  seq       bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  person_id bigint      NOT NULL,
  kind      text        NOT NULL
            CHECK (kind IN ('record_added', 'record_replaced', 'record_deleted', 'judged_never')),
  other_id  bigint,
  source    text        COLLATE "C",
  record_id text        COLLATE "C",
  -- The transaction's time, as merges.merged_at: one change's events share it.
  at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX person_events_person ON person_events (person_id);

-- Every existing person gets one synthetic record holding what it has, so
-- nothing is lost and nothing changes meaning.
INSERT INTO records (source, record_id, person_id, types, vals, traits, created_at, updated_at)
SELECT 'idres-migration', 'person-' || p.id, p.id,
       COALESCE(array_agg(i.type ORDER BY i.type, i.value) FILTER (WHERE i.type IS NOT NULL),
                '{}'),
       COALESCE(array_agg(i.value ORDER BY i.type, i.value) FILTER (WHERE i.type IS NOT NULL),
                '{}'),
       p.traits, p.created_at, p.updated_at
FROM persons p LEFT JOIN identifiers i ON i.person_id = p.id
GROUP BY p.id;
