-- Foundation: users, identities, API keys, the append-only credit ledger and shared rate-limit counters.

CREATE EXTENSION IF NOT EXISTS pgcrypto;

-- Shared guard for tables whose rows are history: no UPDATE, DELETE or TRUNCATE, whoever asks.
CREATE OR REPLACE FUNCTION rubr_reject_mutation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'table % is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TABLE users (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email             text,
  status            text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  plan_key          text NOT NULL DEFAULT 'free',
  display_name      text,
  avatar_url        text,
  email_verified_at timestamptz,
  last_seen_at      timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE identities (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id               uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider              text NOT NULL,
  provider_user_id      text NOT NULL,
  sign_in_provider      text NOT NULL,
  email                 text,
  email_verified        boolean NOT NULL DEFAULT false,
  last_authenticated_at timestamptz NOT NULL DEFAULT now(),
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, provider_user_id)
);
CREATE INDEX identities_user_idx ON identities (user_id);

CREATE TABLE api_keys (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name         text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  prefix       text NOT NULL,
  key_hash     bytea NOT NULL UNIQUE CHECK (octet_length(key_hash) = 32),
  scopes       text[] NOT NULL CHECK (cardinality(scopes) > 0),
  status       text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  last_used_at timestamptz,
  expires_at   timestamptz,
  revoked_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'revoked') = (revoked_at IS NOT NULL))
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at DESC);

-- The O(1) balance: one row per user, updated under its row lock in the same transaction as the ledger insert.
CREATE TABLE credit_balances (
  user_id    uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  balance    bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
  granted    bigint NOT NULL DEFAULT 0 CHECK (granted >= 0),
  debited    bigint NOT NULL DEFAULT 0 CHECK (debited >= 0),
  refunded   bigint NOT NULL DEFAULT 0 CHECK (refunded >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (balance = granted + refunded - debited)
);

CREATE TABLE credit_ledger (
  seq             bigserial UNIQUE,
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id         uuid NOT NULL REFERENCES users (id),
  type            text NOT NULL CHECK (type IN ('grant', 'debit', 'refund')),
  amount          bigint NOT NULL CHECK (amount >= 0),
  reason          text NOT NULL,
  resource_type   text,
  resource_id     uuid,
  balance_after   bigint NOT NULL CHECK (balance_after >= 0),
  -- one event per (reason, resource): a retried grant, debit or refund can never be written twice
  idempotency_key text NOT NULL UNIQUE,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX credit_ledger_user_idx ON credit_ledger (user_id, seq DESC);

CREATE TRIGGER credit_ledger_append_only
  BEFORE UPDATE OR DELETE ON credit_ledger
  FOR EACH ROW EXECUTE FUNCTION rubr_reject_mutation();
CREATE TRIGGER credit_ledger_no_truncate
  BEFORE TRUNCATE ON credit_ledger
  FOR EACH STATEMENT EXECUTE FUNCTION rubr_reject_mutation();

-- Fixed one-minute windows shared by every API process.
CREATE UNLOGGED TABLE rate_limit_counters (
  bucket       text NOT NULL,
  window_start timestamptz NOT NULL,
  hits         integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);

-- Which worker processes have run jobs lately (written by the rubr_heartbeat task).
CREATE TABLE worker_heartbeats (
  worker_id   text PRIMARY KEY,
  jobs_done   bigint NOT NULL DEFAULT 0,
  last_job_at timestamptz NOT NULL DEFAULT now()
);
