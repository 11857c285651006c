-- MCP sessions of the revisions before 2026-07-28 (issue 33) live here, not in one process's
-- memory, so any instance behind a plain load balancer serves any session: an instance that
-- has not seen a session rebuilds it from its row (http/src/mcp/McpAuth.ts). A session is its
-- user's, lasts while the credential that opened it does (checked against api_keys and
-- oauth_grants on every use, so a revocation ends it everywhere at once), and ends when idle
-- for MCP_SESSION_IDLE or when its user opens more than MCP_SESSIONS_PER_USER
-- (core/src/mcp/McpSessionStore.ts). The 2026-07-28 revision has no sessions and no rows.
CREATE TABLE mcp_sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- the credential that opened it: 'apiKey' (api_keys.id) or 'oauth' (oauth_grants.id)
  credential_kind text NOT NULL,
  credential_id uuid,
  protocol_version text NOT NULL,
  -- the client's initialize params (capabilities, clientInfo), replayed where the session is rebuilt
  initialize jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mcp_sessions_user_used ON mcp_sessions (user_id, last_used_at);
CREATE INDEX mcp_sessions_used ON mcp_sessions (last_used_at);

-- Client ID Metadata Documents (issue 33): a client whose client_id is the https URL of its
-- metadata is kept as an oauth_clients row with that URL as its id (so codes and grants refer
-- to it as to any client), refreshed from the document once this time passes (the document's
-- Cache-Control, core/oauth/clientIdDocument.ts). NULL for clients registered with RFC 7591.
ALTER TABLE oauth_clients ADD COLUMN document_expires_at timestamptz;
