-- From card to shipped change (issue 31): repositories connected to a project, the pull
-- requests and commits their forges report, linked to the cards they name, and deployments
-- that mark cards shipped. The rules live in core/src/forge/; docs/forges.md says how it reads.

-- A connection: one forge repository feeding one project. Its webhook secret is sealed like a
-- webhook's (core/webhooks/secretBox.ts, bound to the repository's id): shown once at creation.
CREATE TABLE repositories (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  provider text NOT NULL CHECK (provider IN ('github', 'gitlab', 'gitea', 'forgejo')),
  name text NOT NULL,
  secret_box text NOT NULL,
  created_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX repositories_project_name ON repositories (project_id, provider, lower(name));

-- Each delivery a forge made, by its delivery id: a second delivery with the same id is a no-op,
-- across instances and restarts (the insert is in the delivery's own transaction).
CREATE TABLE forge_deliveries (
  repository_id uuid NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  delivery_id text NOT NULL,
  event text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (repository_id, delivery_id)
);
CREATE INDEX forge_deliveries_created ON forge_deliveries (created_at);

-- A pull request (GitHub, Gitea, Forgejo) or merge request (GitLab) as its forge last told.
CREATE TABLE pull_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  repository_id uuid NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  number integer NOT NULL,
  title text NOT NULL,
  url text NOT NULL,
  branch text NOT NULL,
  state text NOT NULL CHECK (state IN ('open', 'draft', 'merged', 'closed')),
  head_sha text,
  review text CHECK (review IN ('approved', 'changes_requested')),
  merge_commit_sha text,
  merged_at timestamptz,
  updated_at timestamptz NOT NULL,
  UNIQUE (repository_id, number)
);
CREATE INDEX pull_requests_head ON pull_requests (repository_id, head_sha);
CREATE INDEX pull_requests_merge_commit ON pull_requests (merge_commit_sha) WHERE merge_commit_sha IS NOT NULL;

-- The checks of a commit, one row per check name (a check suite, a check run, a commit status,
-- a pipeline): a pull request's `checks` is their combination on its head commit.
CREATE TABLE forge_checks (
  repository_id uuid NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  sha text NOT NULL,
  name text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'success', 'failure')),
  url text,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (repository_id, sha, name)
);

-- Which cards a pull request names; `closes`: after a closing word (Fixes WEB-12).
CREATE TABLE card_pull_requests (
  card_id uuid NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  pull_request_id uuid NOT NULL REFERENCES pull_requests(id) ON DELETE CASCADE,
  closes boolean NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (card_id, pull_request_id)
);
CREATE INDEX card_pull_requests_pr ON card_pull_requests (pull_request_id);

-- Which cards a pushed commit names.
CREATE TABLE card_commits (
  card_id uuid NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  repository_id uuid NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  sha text NOT NULL,
  closes boolean NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (card_id, sha)
);
CREATE INDEX card_commits_sha ON card_commits (sha);

-- A deployment of a project: the commits it shipped to an environment.
CREATE TABLE deployments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment text NOT NULL,
  commits text[] NOT NULL,
  shipped_card_ids uuid[] NOT NULL,
  created_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL
);

-- A shipped card: when, and to which environment (the last deployment that shipped it).
ALTER TABLE cards ADD COLUMN shipped_at timestamptz;
ALTER TABLE cards ADD COLUMN shipped_to text;
