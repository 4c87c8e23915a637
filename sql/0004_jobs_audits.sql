-- Jobs (the user-facing view of asynchronous work), their append-only progress events, audit runs,
-- start-route idempotency keys and service settings (the AI circuit breaker).

CREATE TABLE jobs (
  id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id                 uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  artifact_bundle_id      uuid NOT NULL REFERENCES artifact_bundles (id) ON DELETE CASCADE,
  kind                    text NOT NULL CHECK (kind IN ('audit', 'rubr_flow_conversion', 'eval', 'proof_report')),
  state                   text NOT NULL DEFAULT 'queued'
                            CHECK (state IN ('queued', 'running', 'paused', 'completed', 'failed', 'cancelled')),
  phase                   text NOT NULL,
  percent                 numeric(5, 2) NOT NULL DEFAULT 0 CHECK (percent BETWEEN 0 AND 100),
  message                 text NOT NULL,
  resource_type           text NOT NULL,
  resource_id             uuid NOT NULL,
  attempts                integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  max_attempts            integer NOT NULL DEFAULT 3 CHECK (max_attempts >= 1),
  result                  jsonb,
  error_code              text,
  error_message           text,
  requested_by_api_key_id uuid,
  -- the graphile-worker worker holding the job while it runs, and its last sign of life
  worker_id               text,
  heartbeat_at            timestamptz,
  created_at              timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at              timestamptz NOT NULL DEFAULT clock_timestamp(),
  started_at              timestamptz,
  finished_at             timestamptz,
  CHECK ((state IN ('completed', 'failed', 'cancelled')) = (finished_at IS NOT NULL)),
  CHECK ((state = 'failed') <= (error_code IS NOT NULL))
);
CREATE INDEX jobs_user_idx ON jobs (user_id, created_at DESC);
CREATE INDEX jobs_running_idx ON jobs (heartbeat_at) WHERE state = 'running';

CREATE TABLE job_events (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  job_id             uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  artifact_bundle_id uuid NOT NULL REFERENCES artifact_bundles (id) ON DELETE CASCADE,
  sequence           integer NOT NULL CHECK (sequence >= 1),
  kind               text NOT NULL,
  state              text NOT NULL,
  phase              text NOT NULL,
  percent            numeric(5, 2) NOT NULL,
  message            text NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (job_id, sequence)
);
CREATE TRIGGER job_events_append_only
  BEFORE UPDATE OR DELETE ON job_events
  FOR EACH ROW EXECUTE FUNCTION rubr_reject_history_mutation();
CREATE TRIGGER job_events_no_truncate
  BEFORE TRUNCATE ON job_events
  FOR EACH STATEMENT EXECUTE FUNCTION rubr_reject_mutation();

CREATE TABLE audit_runs (
  id                        uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  artifact_bundle_id        uuid NOT NULL REFERENCES artifact_bundles (id) ON DELETE CASCADE,
  user_id                   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  job_id                    uuid NOT NULL UNIQUE REFERENCES jobs (id) ON DELETE CASCADE,
  requested_by_api_key_id   uuid,
  status                    text NOT NULL DEFAULT 'queued'
                              CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  target_mode               text NOT NULL CHECK (target_mode IN ('file', 'bundle')),
  target_file_id            uuid,
  target_file_version_id    uuid,
  artifact_bundle_version_number integer NOT NULL,
  input_version_ids         uuid[] NOT NULL,
  input_hash                text NOT NULL CHECK (input_hash ~ '^sha256:[0-9a-f]{64}$'),
  rubric_key                text NOT NULL,
  rubric_version            text NOT NULL,
  artifact_type             text NOT NULL,
  -- the persisted estimate and target description, exactly as the start route answered them
  summary                   jsonb NOT NULL,
  estimated_credits         integer NOT NULL CHECK (estimated_credits >= 0),
  final_charged_credits     integer CHECK (final_charged_credits >= 0),
  result                    jsonb,
  usage                     jsonb,
  reconciliation            jsonb,
  error_code                text,
  error_message             text,
  applied_at                timestamptz,
  created_at                timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at                timestamptz NOT NULL DEFAULT clock_timestamp(),
  completed_at              timestamptz,
  CHECK ((target_mode = 'file') = (target_file_version_id IS NOT NULL))
);
CREATE INDEX audit_runs_bundle_idx ON audit_runs (artifact_bundle_id, created_at DESC, id DESC);
CREATE INDEX audit_runs_input_idx ON audit_runs (artifact_bundle_id, input_hash, rubric_key, rubric_version);

-- Idempotency-Key on start routes: the first request with a key stores its response; the unique key
-- makes concurrent duplicates wait for it, then replay it.
CREATE TABLE idempotency_keys (
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  route           text NOT NULL,
  key             text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 255),
  request_hash    text NOT NULL,
  response_status integer NOT NULL,
  response_body   jsonb NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (user_id, route, key)
);

CREATE TABLE service_settings (
  key        text PRIMARY KEY,
  value      jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Spend per day (usage caps, the daily AI budget) reads recent ledger rows.
CREATE INDEX credit_ledger_created_idx ON credit_ledger (created_at);
