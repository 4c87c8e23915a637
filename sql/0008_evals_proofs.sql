-- Eval runs (two immutable file versions compared on test cases) and proof reports (the signed
-- evidence of a completed eval), both kinds of run on the shared pipeline (src/jobs).

CREATE TABLE eval_runs (
  id                         uuid PRIMARY KEY,
  artifact_bundle_id         uuid NOT NULL REFERENCES artifact_bundles (id) ON DELETE CASCADE,
  user_id                    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  job_id                     uuid NOT NULL UNIQUE REFERENCES jobs (id) ON DELETE CASCADE,
  requested_by_api_key_id    uuid,
  status                     text NOT NULL DEFAULT 'queued'
                               CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  source_file_id             uuid NOT NULL REFERENCES bundle_files (id) ON DELETE CASCADE,
  source_file_version_id     uuid NOT NULL REFERENCES file_versions (id) ON DELETE CASCADE,
  candidate_file_id          uuid NOT NULL REFERENCES bundle_files (id) ON DELETE CASCADE,
  candidate_file_version_id  uuid NOT NULL REFERENCES file_versions (id) ON DELETE CASCADE,
  -- the audit whose eval kit supplied the cases, when it did
  audit_run_id               uuid REFERENCES audit_runs (id) ON DELETE SET NULL,
  mode                       text NOT NULL DEFAULT 'standard',
  rubric_key                 text NOT NULL,
  rubric_version             text NOT NULL,
  evaluator_version          text NOT NULL,
  -- the normalized cases, fixed at admission (the estimate is priced on them): a run is repeatable
  cases                      jsonb NOT NULL,
  cases_source               text NOT NULL CHECK (cases_source IN ('request', 'audit_eval_kit', 'generated')),
  case_count                 integer NOT NULL CHECK (case_count BETWEEN 1 AND 50),
  -- the persisted estimate, credit cost and target description, exactly as the start route answered them
  summary                    jsonb NOT NULL,
  estimated_credits          integer NOT NULL CHECK (estimated_credits >= 0),
  final_charged_credits      integer CHECK (final_charged_credits >= 0),
  -- per-case results as they are judged (kept as evidence when the run fails), and the run's aggregate
  results                    jsonb NOT NULL DEFAULT '[]'::jsonb,
  aggregate                  jsonb,
  usage                      jsonb,
  reconciliation             jsonb,
  error_code                 text,
  error_message              text,
  created_at                 timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at                 timestamptz NOT NULL DEFAULT clock_timestamp(),
  completed_at               timestamptz,
  CHECK ((status = 'completed') <= (aggregate IS NOT NULL))
);
CREATE INDEX eval_runs_bundle_idx ON eval_runs (artifact_bundle_id, created_at DESC, id DESC);
CREATE INDEX eval_runs_audit_idx ON eval_runs (audit_run_id) WHERE audit_run_id IS NOT NULL;

CREATE TABLE proof_reports (
  id                         uuid PRIMARY KEY,
  artifact_bundle_id         uuid NOT NULL REFERENCES artifact_bundles (id) ON DELETE CASCADE,
  user_id                    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  job_id                     uuid NOT NULL UNIQUE REFERENCES jobs (id) ON DELETE CASCADE,
  requested_by_api_key_id    uuid,
  status                     text NOT NULL DEFAULT 'queued'
                               CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  eval_run_id                uuid NOT NULL REFERENCES eval_runs (id) ON DELETE CASCADE,
  audit_run_id               uuid REFERENCES audit_runs (id) ON DELETE CASCADE,
  -- the immutable versions the report is bound to
  source_file_version_id     uuid NOT NULL REFERENCES file_versions (id) ON DELETE CASCADE,
  source_content_hash        text NOT NULL CHECK (source_content_hash ~ '^sha256:[0-9a-f]{64}$'),
  candidate_file_version_id  uuid NOT NULL REFERENCES file_versions (id) ON DELETE CASCADE,
  candidate_content_hash     text NOT NULL CHECK (candidate_content_hash ~ '^sha256:[0-9a-f]{64}$'),
  summary                    jsonb NOT NULL,
  -- the signed export document, exactly as served (the database copy; object storage holds another)
  document                   text,
  signing_kid                text,
  signing_alg                text,
  -- where the export was stored, or why it could not be
  export                     jsonb,
  export_failure             jsonb,
  error_code                 text,
  error_message              text,
  created_at                 timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at                 timestamptz NOT NULL DEFAULT clock_timestamp(),
  completed_at               timestamptz,
  CHECK ((status = 'completed') <= (document IS NOT NULL AND signing_kid IS NOT NULL AND signing_alg IS NOT NULL)),
  CHECK ((status = 'completed') <= (export IS NOT NULL OR export_failure IS NOT NULL))
);
CREATE INDEX proof_reports_bundle_idx ON proof_reports (artifact_bundle_id, created_at DESC, id DESC);
CREATE INDEX proof_reports_eval_idx ON proof_reports (eval_run_id);
