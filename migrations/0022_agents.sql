-- Agents as members (issue 30): an agent is an account of kind 'agent' (users.kind) with its
-- workspace, description and creator in `agents`, and a workspace_members row (role `member` by
-- default), so assignees, claims and the access rule treat it as any member. It has no password
-- (its password_hash is no hash, so no sign-in matches it) and its email is no address
-- ('agent:<id>'), so it cannot be invited, added by email or sent a reset. Never a seat.
ALTER TABLE users ADD COLUMN kind text NOT NULL DEFAULT 'person';
ALTER TABLE users ADD CONSTRAINT users_kind_check CHECK (kind IN ('person', 'agent'));

CREATE TABLE agents (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  description text,
  -- the person an agent acts for: its events' actor.onBehalfOf
  created_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  -- a deleted agent keeps its account (history names it) but loses its keys and membership
  deleted_at timestamptz,
  CONSTRAINT agents_pkey PRIMARY KEY (user_id)
);
CREATE INDEX agents_workspace ON agents (workspace_id, created_at);

-- What a key may do (issue 30 stores them; issue 33 enforces them): a subset of read, write,
-- delete, admin; NULL for every key made before scopes existed and for keys made without them.
ALTER TABLE api_keys ADD COLUMN scopes text[];

-- A claim's actor names whom an agent acts for (the agent's creator, or the person who granted
-- an OAuth client), as the event log's actor does.
ALTER TABLE agent_sessions ADD COLUMN actor_on_behalf_of uuid;
