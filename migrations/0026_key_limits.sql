-- Issue 33: scoped credentials. An API key (a person's or an agent's) may be limited to some
-- projects and may expire; its scopes (read, write, delete, admin) are the column 0022 added.
-- NULL: not limited (every project of the account's workspaces; never expires).
ALTER TABLE api_keys ADD COLUMN project_ids uuid[];
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
