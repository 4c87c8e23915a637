-- Email: categories, per-address preferences (the newsletter included), the outbox, unsubscribe tokens.

-- The category keys; labels and descriptions live in src/email/Categories.ts. The (key, can_disable)
-- pair is referenced below so that the database itself refuses a preference row or an unsubscribe
-- token for a must-receive category.
CREATE TABLE email_categories (
  key         text PRIMARY KEY CHECK (key ~ '^[a-z][a-z0-9_]{0,62}$'),
  can_disable boolean NOT NULL,
  UNIQUE (key, can_disable)
);
INSERT INTO email_categories (key, can_disable) VALUES
  ('marketing_newsletter', true),
  ('account_security', false),
  ('service_critical', false),
  ('billing', false),
  ('legal', false);

-- Optional-category choices, per normalized address (consent is given for an address). No row: off.
CREATE TABLE email_preferences (
  email       text NOT NULL CHECK (email = lower(btrim(email)) AND email LIKE '%_@_%'),
  category    text NOT NULL,
  can_disable boolean NOT NULL DEFAULT true CHECK (can_disable),
  enabled     boolean NOT NULL,
  -- what last changed it: newsletter_subscription, preferences, unsubscribe_token
  source      text NOT NULL,
  consent_at  timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (email, category),
  FOREIGN KEY (category, can_disable) REFERENCES email_categories (key, can_disable),
  CHECK (NOT enabled OR consent_at IS NOT NULL)
);

-- Every outbound email, written in the transaction of the change that causes it. The body never holds
-- an unsubscribe token: the token is minted at delivery (only its hash is stored, below) and put in
-- place of {{unsubscribe_url}}.
--   held: sending disabled (SERVICE_EMAIL_SEND_ENABLED=false), kept here
--   pending: queued for the rubr_email_send task
--   sent / failed: delivered over SMTP / gave up after the last retry
--   suppressed: an optional-category email to an address that has the category off; never sent
CREATE TABLE email_outbox (
  seq         bigserial UNIQUE,
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  recipient   text NOT NULL CHECK (recipient = lower(btrim(recipient))),
  category    text NOT NULL REFERENCES email_categories (key),
  kind        text NOT NULL,
  subject     text NOT NULL,
  body_text   text NOT NULL,
  status      text NOT NULL CHECK (status IN ('held', 'pending', 'sent', 'failed', 'suppressed')),
  attempts    integer NOT NULL DEFAULT 0,
  last_error  text,
  message_id  text,
  created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  sent_at     timestamptz
);
CREATE INDEX email_outbox_recipient_idx ON email_outbox (recipient, seq DESC);

-- One-click unsubscribe tokens: SHA-256 of a random 256-bit token, bound to one address and one
-- optional category. Consumed once (consumed_at), in one conditional UPDATE.
CREATE TABLE email_unsubscribe_tokens (
  token_hash  bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
  outbox_id   uuid REFERENCES email_outbox (id) ON DELETE SET NULL,
  email       text NOT NULL,
  category    text NOT NULL,
  can_disable boolean NOT NULL DEFAULT true CHECK (can_disable),
  created_at  timestamptz NOT NULL DEFAULT now(),
  consumed_at timestamptz,
  FOREIGN KEY (category, can_disable) REFERENCES email_categories (key, can_disable)
);
CREATE INDEX email_unsubscribe_tokens_outbox_idx ON email_unsubscribe_tokens (outbox_id);
