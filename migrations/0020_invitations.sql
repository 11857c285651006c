-- Invitations and password resets (issue 30). Both are links a person is sent: only the SHA-256
-- digest of the link's token is stored (auth/secretTokens.ts), so a copy of the database opens
-- no workspace and resets no password.

-- A link to join a workspace with a role: valid 7 days, used once (accepted_at), withdrawn by
-- deleting the row. `email`, when set, is the only account that may accept it.
CREATE TABLE invitations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  invited_by uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email text,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
  digest text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by uuid REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX invitations_workspace ON invitations(workspace_id);

-- A one-time link to set a new password: valid 1 hour, used once (used_at). A new request for
-- the same account leaves earlier links valid until they expire or one of them is used: using
-- one ends them all (core/auth/PasswordResets.ts).
CREATE TABLE password_resets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  digest text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_resets_user ON password_resets(user_id);
