-- Artifact bundles, their files and the immutable version history of every file.
--
-- Concurrency model: every write to a bundle's files first locks the bundle row (SELECT ... FOR UPDATE),
-- so bundle-level event numbers, file version numbers, fileCount and the primary file are assigned under
-- one lock, in SQL, with no gaps and no duplicates. The unique partial index on active paths is the
-- backstop that turns a duplicate active path into a 409 even if a code path forgot the lock.
--
-- Later tables (jobs, audit runs, conversions, evals) reference artifact_bundles (id) ON DELETE CASCADE,
-- so a permanent delete removes the whole bundle history in one statement.

CREATE TABLE artifact_bundles (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name            text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  description     text CHECK (description IS NULL OR char_length(description) <= 2000),
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
  settings        jsonb NOT NULL DEFAULT '{}'::jsonb,
  custom_rubric   jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- maintained under the bundle row lock in the same transaction as every file change
  primary_file_id uuid,
  file_count      integer NOT NULL DEFAULT 0 CHECK (file_count >= 0),
  version_count   integer NOT NULL DEFAULT 0 CHECK (version_count >= 0),
  archived_at     timestamptz,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK ((status = 'archived') = (archived_at IS NOT NULL))
);
CREATE INDEX artifact_bundles_user_idx ON artifact_bundles (user_id, created_at DESC, id DESC);
CREATE INDEX artifact_bundles_user_status_idx ON artifact_bundles (user_id, status, created_at DESC, id DESC);

-- Content-addressed text, deduplicated per bundle (a restore or an unchanged re-upload stores nothing new).
-- Kept per bundle, not global, so a permanent delete removes the bytes too and no bundle can observe another's.
CREATE TABLE file_contents (
  artifact_bundle_id uuid NOT NULL REFERENCES artifact_bundles (id) ON DELETE CASCADE,
  content_hash       text NOT NULL CHECK (content_hash ~ '^sha256:[0-9a-f]{64}$'),
  size_bytes         integer NOT NULL CHECK (size_bytes >= 0),
  content            text NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (artifact_bundle_id, content_hash)
);

CREATE TABLE bundle_files (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  artifact_bundle_id   uuid NOT NULL REFERENCES artifact_bundles (id) ON DELETE CASCADE,
  path                 text NOT NULL CHECK (char_length(path) BETWEEN 1 AND 512),
  artifact_type        text NOT NULL,
  status               text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'deleted')),
  latest_version_number integer NOT NULL DEFAULT 0 CHECK (latest_version_number >= 0),
  -- the bundle event that created the file, and the bundle's event count when it was soft-deleted:
  -- together they say whether the file existed at a given artifactBundleVersionNumber
  created_bundle_version_number integer NOT NULL,
  deleted_bundle_version_number integer,
  deleted_at           timestamptz,
  created_at           timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at           timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK ((status = 'deleted') = (deleted_at IS NOT NULL))
);
-- one active file per path; a soft-deleted path is free again
CREATE UNIQUE INDEX bundle_files_active_path_idx ON bundle_files (artifact_bundle_id, path) WHERE status = 'active';
CREATE INDEX bundle_files_bundle_idx ON bundle_files (artifact_bundle_id, created_bundle_version_number);

ALTER TABLE artifact_bundles
  ADD CONSTRAINT artifact_bundles_primary_file_fk FOREIGN KEY (primary_file_id) REFERENCES bundle_files (id)
  ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;

-- Immutable: one row per file version, which is also one bundle version event.
CREATE TABLE file_versions (
  id                             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  file_id                        uuid NOT NULL REFERENCES bundle_files (id) ON DELETE CASCADE,
  artifact_bundle_id             uuid NOT NULL REFERENCES artifact_bundles (id) ON DELETE CASCADE,
  version_number                 integer NOT NULL CHECK (version_number >= 1),
  artifact_bundle_version_number integer NOT NULL CHECK (artifact_bundle_version_number >= 1),
  file_path                      text NOT NULL,
  source                         text NOT NULL CHECK (char_length(source) BETWEEN 1 AND 64),
  content_hash                   text NOT NULL,
  size_bytes                     integer NOT NULL CHECK (size_bytes >= 0),
  parent_version_id              uuid,
  message                        text,
  media_type                     text NOT NULL,
  detected_language              text NOT NULL,
  storage_provider               text NOT NULL DEFAULT 'postgres',
  restored_from_version_id       uuid,
  created_by_api_key_id          uuid,
  created_at                     timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (file_id, version_number),
  UNIQUE (artifact_bundle_id, artifact_bundle_version_number),
  FOREIGN KEY (artifact_bundle_id, content_hash) REFERENCES file_contents (artifact_bundle_id, content_hash)
    ON DELETE CASCADE
);
CREATE INDEX file_versions_content_idx ON file_versions (artifact_bundle_id, content_hash);

-- History rows never change. They may only disappear with their bundle (a permanent delete cascades
-- here after the bundle row is gone); any other UPDATE or DELETE is refused.
CREATE OR REPLACE FUNCTION rubr_reject_history_mutation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM artifact_bundles WHERE id = OLD.artifact_bundle_id) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'table % is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER file_versions_append_only
  BEFORE UPDATE OR DELETE ON file_versions
  FOR EACH ROW EXECUTE FUNCTION rubr_reject_history_mutation();
CREATE TRIGGER file_versions_no_truncate
  BEFORE TRUNCATE ON file_versions
  FOR EACH STATEMENT EXECUTE FUNCTION rubr_reject_mutation();
CREATE TRIGGER file_contents_append_only
  BEFORE UPDATE OR DELETE ON file_contents
  FOR EACH ROW EXECUTE FUNCTION rubr_reject_history_mutation();
CREATE TRIGGER file_contents_no_truncate
  BEFORE TRUNCATE ON file_contents
  FOR EACH STATEMENT EXECUTE FUNCTION rubr_reject_mutation();
