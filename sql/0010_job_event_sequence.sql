-- Each job counts its events (issue 16): the statement that moves a job reads and bumps this counter
-- under the job's row lock, so its events (one, or a batch of buffered progress events and the state
-- change) get their sequence numbers in that one statement, with no MAX(sequence) round trip, and two
-- statements moving the same job can never hand out the same number.
--
-- No backfill: the statement takes GREATEST(event_sequence, the job's highest sequence), so jobs created
-- before this migration, and events a process of the previous version writes during a rolling upgrade,
-- are counted too. The default 1 is the queued event every job is created with.
ALTER TABLE jobs ADD COLUMN event_sequence integer NOT NULL DEFAULT 1 CHECK (event_sequence >= 0);
