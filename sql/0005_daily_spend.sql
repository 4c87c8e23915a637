-- Credits spent on AI work per UTC day, kept beside the ledger in the same transaction as each debit or
-- refund, so usage caps, the daily budget and GET /credits read one row instead of summing the ledger.
CREATE TABLE credit_daily_spend (
  scope    text NOT NULL CHECK (scope IN ('user', 'bundle', 'all')),
  scope_id text NOT NULL,
  day      date NOT NULL,
  net      bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (scope, scope_id, day)
);
