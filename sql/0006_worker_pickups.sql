-- Queue latency probes: a rubr_heartbeat job queued with {"probe": true} records when it was queued
-- (graphile_worker.jobs.created_at, passed in the payload) and when a worker started it.
CREATE TABLE worker_pickups (
  id          bigserial PRIMARY KEY,
  worker_id   text NOT NULL,
  enqueued_at timestamptz NOT NULL,
  started_at  timestamptz NOT NULL
);
