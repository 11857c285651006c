-- Settings of this installation. install_id namespaces shared state outside the database
-- (rate-limit counters in Redis), so instances sharing a database share budgets and separate
-- databases never do.
CREATE TABLE board_settings (
  key text PRIMARY KEY,
  value text NOT NULL
);
INSERT INTO board_settings (key, value) VALUES ('install_id', gen_random_uuid()::text);

-- Intake tokens file cards into one column, blind. Only the SHA-256 digest is stored.
CREATE TABLE intake_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  digest text NOT NULL UNIQUE,
  name text,
  -- recorded at minting: a deleted column or one now in another project makes the token unusable
  column_id uuid NOT NULL,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  created_by uuid REFERENCES users(id) ON DELETE SET NULL,
  expires_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX intake_tokens_project ON intake_tokens(project_id, created_at);

-- Idempotency claims, written in the same transaction as the card they filed.
CREATE TABLE intake_claims (
  token_id uuid NOT NULL REFERENCES intake_tokens(id) ON DELETE CASCADE,
  idempotency_key text NOT NULL,
  card_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (token_id, idempotency_key)
);
CREATE INDEX intake_claims_age ON intake_claims(created_at);
CREATE INDEX cards_intake_token ON cards(intake_token_id) WHERE intake_token_id IS NOT NULL;
