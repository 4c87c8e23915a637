-- The public keys that sign exports (proof reports), served as the JWKS at GET /api/v1/signing-keys.
-- Every process registers its active key at start (INSERT ... ON CONFLICT DO NOTHING), so any API
-- process serves every key any process ever signed with. Rows are history: a rotated-out key stays
-- listed forever, so old exports keep verifying. (A compromised key is withdrawn by an operator, on
-- purpose: ALTER TABLE signing_keys DISABLE TRIGGER signing_keys_append_only, DELETE, ENABLE.)

CREATE TABLE signing_keys (
  -- RFC 7638 SHA-256 JWK thumbprint, base64url (43 characters)
  kid        text PRIMARY KEY CHECK (kid ~ '^[A-Za-z0-9_-]{43}$'),
  alg        text NOT NULL CHECK (alg IN ('EdDSA', 'ES256')),
  -- the public JWK as served (kty, crv, x, y?, kid, alg, use); never a private part
  public_jwk jsonb NOT NULL CHECK (
    jsonb_typeof(public_jwk) = 'object'
    AND public_jwk ->> 'kid' = kid
    AND public_jwk ->> 'alg' = alg
    AND NOT (public_jwk ? 'd')
  ),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TRIGGER signing_keys_append_only
  BEFORE UPDATE OR DELETE ON signing_keys
  FOR EACH ROW EXECUTE FUNCTION rubr_reject_mutation();
CREATE TRIGGER signing_keys_no_truncate
  BEFORE TRUNCATE ON signing_keys
  FOR EACH STATEMENT EXECUTE FUNCTION rubr_reject_mutation();
