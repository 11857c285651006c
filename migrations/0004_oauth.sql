-- OAuth 2.1 for agents: registered clients, single-use codes, grants bound to the workspaces
-- ticked at consent, and rotating tokens. Secrets are stored as SHA-256 digests only.
CREATE TABLE oauth_clients (
  id text PRIMARY KEY,
  client_name text,
  redirect_uris text[] NOT NULL,
  grant_types text[] NOT NULL,
  response_types text[] NOT NULL,
  token_endpoint_auth_method text NOT NULL,
  application_type text,
  scope text NOT NULL,
  secret_digest text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE oauth_grants (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id text NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  workspaces uuid[] NOT NULL,
  scope text NOT NULL,
  resource text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX oauth_grants_user ON oauth_grants(user_id, created_at);

CREATE TABLE oauth_codes (
  digest text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  scope text NOT NULL,
  resource text NOT NULL,
  workspaces uuid[] NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  -- the grant its redemption created: a second redemption revokes it
  grant_id uuid REFERENCES oauth_grants(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE oauth_tokens (
  digest text PRIMARY KEY,
  grant_id uuid NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
  expires_at timestamptz NOT NULL,
  -- refresh tokens: set when rotated; presenting a used one again revokes the grant
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens(grant_id);
