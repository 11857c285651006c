-- Web board sessions (issue 21): the cookie a person's browser holds after signing in. Only the
-- SHA-256 digest of the cookie's secret is stored, so a copy of the database signs no one in.
-- A session ends when it is revoked (sign out), when it has been idle for 14 days
-- (expires_at slides forward on use) or 30 days after it was opened, whichever comes first.
CREATE TABLE web_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  digest text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX web_sessions_user ON web_sessions(user_id);

-- Sessions are cached like every other credential (auth/CredentialCache.ts): a sign out
-- reaches every instance through the revocation feed of migrations/0007.
CREATE TRIGGER web_sessions_revoked AFTER UPDATE OF revoked_at OR DELETE ON web_sessions
  FOR EACH ROW EXECUTE FUNCTION board_notify_revoked();
