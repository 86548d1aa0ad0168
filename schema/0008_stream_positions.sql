-- idres store, step 8 (docs/batch.md, "Streams: idres consume and the change
-- feed to Kafka").

-- Where each consumer group stands in each partition of each topic it reads:
-- the offset of the next message to apply. Written by the transaction that
-- stores the records of the messages before it, so the records and the
-- position commit together or not at all; a consumer starts there.
CREATE TABLE IF NOT EXISTS stream_positions (
  consumer_group text NOT NULL,
  topic text NOT NULL,
  partition integer NOT NULL,
  next_offset bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (consumer_group, topic, partition)
);
