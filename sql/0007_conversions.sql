-- rubr_flow conversions: one row per conversion, moving with its job (src/jobs). The output file
-- version is set only when a valid rubr_flow was saved; a failed conversion keeps its report (the
-- validation issues and the repair details) and writes no file.

CREATE TABLE rubr_flow_conversions (
  id                             uuid PRIMARY KEY,
  artifact_bundle_id             uuid NOT NULL REFERENCES artifact_bundles (id) ON DELETE CASCADE,
  user_id                        uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  job_id                         uuid NOT NULL UNIQUE REFERENCES jobs (id) ON DELETE CASCADE,
  requested_by_api_key_id        uuid,
  status                         text NOT NULL DEFAULT 'queued'
                                   CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  target_mode                    text NOT NULL CHECK (target_mode IN ('file', 'bundle')),
  target_file_id                 uuid REFERENCES bundle_files (id) ON DELETE CASCADE,
  -- the converted file version (file mode); bundle mode converts every input file of the artifact
  source_file_version_id         uuid REFERENCES file_versions (id) ON DELETE CASCADE,
  artifact_bundle_version_number integer NOT NULL CHECK (artifact_bundle_version_number >= 0),
  input_version_ids              uuid[] NOT NULL,
  input_hash                     text NOT NULL CHECK (input_hash ~ '^sha256:[0-9a-f]{64}$'),
  output_path                    text NOT NULL CHECK (char_length(output_path) BETWEEN 1 AND 512),
  output_file_id                 uuid REFERENCES bundle_files (id) ON DELETE CASCADE,
  output_file_version_id         uuid REFERENCES file_versions (id) ON DELETE CASCADE,
  validator_version              text NOT NULL,
  -- the persisted estimate, credit cost and target description, exactly as the start route answered them
  summary                        jsonb NOT NULL,
  estimated_credits              integer NOT NULL CHECK (estimated_credits >= 0),
  final_charged_credits          integer CHECK (final_charged_credits >= 0),
  -- sourceSummary, sourceMapping, blockMapping, missingRequirements, validation, repair, suggestedEvals,
  -- remainingRisks and provider metadata; written by the worker, also when the conversion fails
  report                         jsonb,
  usage                          jsonb,
  reconciliation                 jsonb,
  error_code                     text,
  error_message                  text,
  created_at                     timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at                     timestamptz NOT NULL DEFAULT clock_timestamp(),
  completed_at                   timestamptz,
  CHECK ((target_mode = 'file') = (source_file_version_id IS NOT NULL)),
  CHECK ((output_file_id IS NULL) = (output_file_version_id IS NULL)),
  -- a completed conversion has its output; a failed or cancelled one never has
  CHECK ((status = 'completed') <= (output_file_version_id IS NOT NULL)),
  CHECK ((status IN ('failed', 'cancelled')) <= (output_file_version_id IS NULL))
);
CREATE INDEX rubr_flow_conversions_bundle_idx ON rubr_flow_conversions (artifact_bundle_id, created_at DESC, id DESC);
