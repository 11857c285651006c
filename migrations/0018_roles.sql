-- Teams (issue 30): four roles per workspace, and the project settings the team manages.
-- A viewer reads and changes nothing; a member works the boards; an admin also manages members,
-- invitations, the workspace's name and its projects; an owner also deletes the workspace and
-- makes owners. The rule lives in core/board/Access.ts (`ROLE_RANK`, `requireRole`); the table
-- only keeps the value one of the four.
ALTER TABLE workspace_members DROP CONSTRAINT workspace_members_role_check;
ALTER TABLE workspace_members ADD CONSTRAINT workspace_members_role_check
  CHECK (role IN ('owner', 'admin', 'member', 'viewer'));

-- An archived project leaves the workspace's project list (unless asked for) and refuses writes
-- with 409; its board still reads.
ALTER TABLE projects ADD COLUMN archived_at timestamptz;

-- Forge automation per project (issue 31): both on by default.
ALTER TABLE projects ADD COLUMN automation jsonb NOT NULL
  DEFAULT '{"pullRequestOpened": true, "pullRequestMerged": true}'::jsonb;

-- A `feedback` activity (issue 31): what a forge said about the card's pull request (changes
-- requested, checks failed), added to the card's live agent session for the agent to act on.
ALTER TABLE agent_activities DROP CONSTRAINT agent_activities_type_check;
ALTER TABLE agent_activities ADD CONSTRAINT agent_activities_type_check
  CHECK (type IN ('thought', 'action', 'elicitation', 'response', 'error', 'feedback'));
