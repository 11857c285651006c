-- The database schema after every migration, generated: do not edit. After adding or merging
-- a migration, run `npx -y pnpm@10 schema:dump` and commit this file (test/schema.test.ts
-- checks it). What each trigger family is for, and why it is SQL: docs/database.md.
-- Migrations: 0001_init.sql .. 0033_project_links_host.sql (31 files).

SET check_function_bodies = false;

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE SEQUENCE desktop_release_order INCREMENT 1 MINVALUE 1 MAXVALUE 9223372036854775807 START 1 CACHE 1;

CREATE OR REPLACE FUNCTION public.agent_sessions_claimed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  target uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.card_id ELSE NEW.card_id END;
  live boolean := EXISTS (SELECT 1 FROM agent_sessions s
    WHERE s.card_id = target AND s.status IN ('active', 'awaitingInput', 'error'));
BEGIN
  UPDATE cards SET claimed = live WHERE id = target AND claimed IS DISTINCT FROM live;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.board_card_json()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  NEW.json_1 := concat('{"id":', COALESCE('"' || NEW.id || '"', 'null'), ',"projectId":', COALESCE('"' || NEW.project_id || '"', 'null'), ',"columnId":', COALESCE('"' || NEW.column_id || '"', 'null'), ',"position":');
  NEW.json_2 := concat(',"ref":', COALESCE(to_json(NEW.ref)::text, 'null'), ',"title":', COALESCE(to_json(NEW.title)::text, 'null'), ',"description":', COALESCE(to_json(NEW.description)::text, 'null'), ',"priority":', COALESCE(to_json(NEW.priority)::text, 'null'), ',"labels":');
  NEW.json_3 := concat(',"dueAt":', COALESCE('"' || to_char(NEW.due_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null'), ',"source":', COALESCE(to_json(NEW.source)::text, 'null'), ',"intakeTokenId":', COALESCE('"' || NEW.intake_token_id || '"', 'null'), ',"createdAt":', '"' || to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', ',"updatedAt":', '"' || to_char(NEW.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', ',"archivedAt":', COALESCE('"' || to_char(NEW.archived_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null'), ',"claim":');
  NEW.json_4 := concat(',"shippedAt":', COALESCE('"' || to_char(NEW.shipped_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null'), ',"shippedTo":', COALESCE(to_json(NEW.shipped_to)::text, 'null'), ',"pullRequestMark":', COALESCE(to_json(NEW.pull_request_mark)::text, 'null'), '}');
  RETURN NEW;
END
$function$;

CREATE OR REPLACE FUNCTION public.board_count_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO card_order_counts (column_id, bucket, delta)
    SELECT column_id, floor(floor(sort_key) / 128), -count(*) FROM changed WHERE sort_key IS NOT NULL GROUP BY 1, 2;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.board_count_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO card_order_counts (column_id, bucket, delta)
    SELECT column_id, floor(floor(sort_key) / 128), count(*) FROM changed WHERE sort_key IS NOT NULL GROUP BY 1, 2;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.board_count_updated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO card_order_counts (column_id, bucket, delta)
    SELECT column_id, bucket, sum(d) FROM (
      SELECT column_id, floor(floor(sort_key) / 128) AS bucket, -1 AS d FROM old_cards
        WHERE sort_key IS NOT NULL
      UNION ALL
      SELECT column_id, floor(floor(sort_key) / 128), 1 FROM new_cards
        WHERE sort_key IS NOT NULL
    ) moved GROUP BY 1, 2 HAVING sum(d) <> 0;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.board_disable_credential_webhooks()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.revoked_at IS NULL OR OLD.revoked_at IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' AND OLD.revoked_at IS NOT NULL THEN
    RETURN NULL;
  END IF;
  UPDATE webhooks SET enabled = false, disabled_reason = TG_ARGV[0],
    updated_at = CASE WHEN TG_OP = 'UPDATE' THEN NEW.revoked_at ELSE now() END
  WHERE created_by_credential = OLD.id AND enabled;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.board_event_tx()
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
BEGIN
  RETURN pg_current_xact_id()::text::bigint + (SELECT xid_offset FROM event_clock);
END
$function$;

CREATE OR REPLACE FUNCTION public.board_event_written()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO webhook_deliveries (webhook_id, event_n, event_id, event_type, next_attempt_at, created_at, updated_at)
  SELECT w.id, NEW.n,
    lpad(to_hex(NEW.tx), 12, '0') || lpad(to_hex(NEW.n), 12, '0'),
    NEW.type, NEW.created_at, NEW.created_at, NEW.created_at
  FROM webhooks w
  WHERE w.workspace_id = NEW.workspace_id AND w.enabled
    AND (w.project_id IS NULL OR w.project_id = NEW.project_id)
    AND (NEW.type = ANY(w.events) OR '*' = ANY(w.events));
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.board_key_between(lo numeric, hi numeric)
 RETURNS numeric
 LANGUAGE sql
 PARALLEL SAFE
AS $function$
  SELECT CASE
    WHEN lo IS NULL AND hi IS NULL THEN 1 + round(random()::numeric / 2, 6)
    WHEN hi IS NULL THEN floor(lo) + 1 + round(random()::numeric / 2, 6)
    WHEN lo IS NULL THEN ceil(hi) - 1 - round(random()::numeric / 2, 6)
    ELSE round(lo + (hi - lo) * (0.25 + round(random()::numeric / 2, 6)),
      greatest(0, ceil(-log(hi - lo))::int) + 6)
  END
$function$;

CREATE OR REPLACE FUNCTION public.board_next_ref(project uuid)
 RETURNS bigint
 LANGUAGE sql
AS $function$ SELECT nextval(board_ref_sequence(project)::regclass) $function$;

CREATE OR REPLACE FUNCTION public.board_notify_member_left()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM pg_notify('board_revoked', 'member:' || OLD.user_id::text);
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.board_notify_revoked()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM pg_notify('board_revoked', OLD.id::text);
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.board_project_ref_sequence()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format('CREATE SEQUENCE %I', board_ref_sequence(NEW.id));
    RETURN NEW;
  END IF;
  EXECUTE format('DROP SEQUENCE IF EXISTS %I', board_ref_sequence(OLD.id));
  RETURN OLD;
END $function$;

CREATE OR REPLACE FUNCTION public.board_rebase_event_clock()
 RETURNS bigint
 LANGUAGE sql
AS $function$
  UPDATE event_clock SET xid_offset = needed.o
  FROM (
    SELECT max(x.tx) + 1 - pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS o
    FROM projects p
    CROSS JOIN LATERAL (SELECT e.tx FROM events e WHERE e.project_id = p.id ORDER BY e.tx DESC LIMIT 1) x
  ) needed
  WHERE needed.o > event_clock.xid_offset;
  SELECT xid_offset FROM event_clock;
$function$;

CREATE OR REPLACE FUNCTION public.board_ref_sequence(project uuid)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$ SELECT 'card_ref_' || replace(project::text, '-', '') $function$;

CREATE TABLE agent_activities (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  session_id uuid NOT NULL,
  type text NOT NULL,
  body text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  n bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
  CONSTRAINT agent_activities_pkey PRIMARY KEY (id),
  CONSTRAINT agent_activities_type_check CHECK ((type = ANY (ARRAY['thought'::text, 'action'::text, 'elicitation'::text, 'response'::text, 'error'::text, 'feedback'::text])))
);

CREATE TABLE agent_sessions (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  card_id uuid NOT NULL,
  project_id uuid NOT NULL,
  user_id uuid NOT NULL,
  credential_kind text NOT NULL,
  credential_id uuid,
  actor_type text NOT NULL,
  actor_name text,
  status text NOT NULL,
  ttl_seconds integer NOT NULL,
  lease_expires_at timestamp with time zone NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  actor_on_behalf_of uuid,
  CONSTRAINT agent_sessions_pkey PRIMARY KEY (id),
  CONSTRAINT agent_sessions_status_check CHECK ((status = ANY (ARRAY['active'::text, 'awaitingInput'::text, 'error'::text, 'complete'::text, 'released'::text, 'stale'::text]))),
  CONSTRAINT agent_sessions_ttl_seconds_check CHECK (((ttl_seconds >= 30) AND (ttl_seconds <= 3600)))
);

CREATE TABLE agents (
  user_id uuid NOT NULL,
  workspace_id uuid NOT NULL,
  description text,
  created_by uuid,
  created_at timestamp with time zone NOT NULL,
  deleted_at timestamp with time zone,
  CONSTRAINT agents_pkey PRIMARY KEY (user_id)
);

CREATE TABLE api_keys (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  user_id uuid NOT NULL,
  name text NOT NULL,
  digest text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  revoked_at timestamp with time zone,
  scopes text[],
  project_ids uuid[],
  expires_at timestamp with time zone,
  CONSTRAINT api_keys_digest_key UNIQUE (digest),
  CONSTRAINT api_keys_pkey PRIMARY KEY (id)
);

CREATE TABLE board_columns (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  project_id uuid NOT NULL,
  name text NOT NULL,
  "position" integer NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  order_epoch integer DEFAULT 0 NOT NULL,
  kind text NOT NULL,
  CONSTRAINT board_columns_kind CHECK ((kind = ANY (ARRAY['todo'::text, 'in_progress'::text, 'done'::text]))),
  CONSTRAINT board_columns_pkey PRIMARY KEY (id),
  CONSTRAINT board_columns_position_check CHECK (("position" >= 0)),
  CONSTRAINT board_columns_position_unique UNIQUE (project_id, "position") DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE board_migrations (
  migration_id integer NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  name text NOT NULL,
  CONSTRAINT board_migrations_pkey PRIMARY KEY (migration_id)
);

CREATE TABLE board_settings (
  key text NOT NULL,
  value text NOT NULL,
  CONSTRAINT board_settings_pkey PRIMARY KEY (key)
);

CREATE TABLE card_assignees (
  card_id uuid NOT NULL,
  user_id uuid NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT card_assignees_pkey PRIMARY KEY (card_id, user_id)
);

CREATE TABLE card_commits (
  card_id uuid NOT NULL,
  repository_id uuid NOT NULL,
  sha text NOT NULL,
  closes boolean NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT card_commits_pkey PRIMARY KEY (card_id, sha)
);

CREATE TABLE card_labels (
  card_id uuid NOT NULL,
  label_id uuid NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT card_labels_pkey PRIMARY KEY (card_id, label_id)
);

CREATE TABLE card_links (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  source_id uuid NOT NULL,
  target_id uuid NOT NULL,
  link_type text NOT NULL,
  created_by uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT card_links_check CHECK ((source_id <> target_id)),
  CONSTRAINT card_links_link_type_check CHECK ((link_type = ANY (ARRAY['relates_to'::text, 'blocks'::text, 'duplicates'::text, 'is_part_of'::text]))),
  CONSTRAINT card_links_pkey PRIMARY KEY (id),
  CONSTRAINT card_links_unique UNIQUE (source_id, target_id, link_type)
);

CREATE TABLE card_order_counts (
  column_id uuid NOT NULL,
  bucket numeric NOT NULL,
  delta integer NOT NULL
);

CREATE TABLE card_pull_requests (
  card_id uuid NOT NULL,
  pull_request_id uuid NOT NULL,
  closes boolean NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT card_pull_requests_pkey PRIMARY KEY (card_id, pull_request_id)
);

CREATE TABLE cards (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  project_id uuid NOT NULL,
  column_id uuid NOT NULL,
  ref_number integer NOT NULL,
  ref text NOT NULL,
  title text NOT NULL,
  description text,
  priority text DEFAULT 'medium'::text NOT NULL,
  source text DEFAULT 'api'::text NOT NULL,
  intake_token_id uuid,
  created_by uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  sort_key numeric,
  due_at timestamp with time zone,
  claimed boolean DEFAULT false NOT NULL,
  shipped_at timestamp with time zone,
  shipped_to text,
  archived_at timestamp with time zone,
  pull_request_mark text,
  json_1 text,
  json_2 text,
  json_3 text,
  json_4 text,
  CONSTRAINT cards_archived_unordered CHECK (((archived_at IS NULL) = (sort_key IS NOT NULL))),
  CONSTRAINT cards_order_unique UNIQUE (column_id, sort_key) DEFERRABLE,
  CONSTRAINT cards_pkey PRIMARY KEY (id),
  CONSTRAINT cards_priority_check CHECK ((priority = ANY (ARRAY['low'::text, 'medium'::text, 'high'::text, 'urgent'::text]))),
  CONSTRAINT cards_pull_request_mark_check CHECK ((pull_request_mark = ANY (ARRAY['open'::text, 'merged'::text, 'checks_failing'::text]))),
  CONSTRAINT cards_ref_unique UNIQUE (project_id, ref_number)
);

CREATE TABLE comments (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  n bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
  card_id uuid NOT NULL,
  author_id uuid,
  author_kind text NOT NULL,
  author json NOT NULL,
  body text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT comments_pkey PRIMARY KEY (id)
);

CREATE TABLE deployments (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  project_id uuid NOT NULL,
  environment text NOT NULL,
  commits text[] NOT NULL,
  shipped_card_ids uuid[] NOT NULL,
  created_by uuid,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT deployments_pkey PRIMARY KEY (id)
);

CREATE TABLE desktop_releases (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  platform text NOT NULL,
  version text NOT NULL,
  notes text NOT NULL,
  artifact text NOT NULL,
  sha256 text NOT NULL,
  sha512 text NOT NULL,
  size_bytes bigint NOT NULL,
  files jsonb NOT NULL,
  has_feed boolean NOT NULL,
  publish_order bigint DEFAULT nextval('desktop_release_order'::regclass) NOT NULL,
  published_at timestamp with time zone NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT desktop_releases_pkey PRIMARY KEY (id),
  CONSTRAINT desktop_releases_platform_version_key UNIQUE (platform, version),
  CONSTRAINT desktop_releases_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text)),
  CONSTRAINT desktop_releases_size_bytes_check CHECK ((size_bytes >= 0))
);

CREATE TABLE event_clock (
  one boolean DEFAULT true NOT NULL,
  xid_offset bigint DEFAULT 0 NOT NULL,
  CONSTRAINT event_clock_one_check CHECK (one),
  CONSTRAINT event_clock_pkey PRIMARY KEY (one),
  CONSTRAINT event_clock_xid_offset_check CHECK ((xid_offset >= 0))
);

CREATE TABLE events (
  n bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
  tx bigint DEFAULT board_event_tx() NOT NULL,
  workspace_id uuid NOT NULL,
  project_id uuid NOT NULL,
  card_id uuid,
  type text NOT NULL,
  actor json NOT NULL,
  data json NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT events_pkey PRIMARY KEY (n)
);

CREATE TABLE file_store (
  one boolean DEFAULT true NOT NULL,
  local_root text,
  recorded_at timestamp with time zone NOT NULL,
  CONSTRAINT file_store_one_check CHECK (one),
  CONSTRAINT file_store_pkey PRIMARY KEY (one)
);

CREATE TABLE forge_checks (
  repository_id uuid NOT NULL,
  sha text NOT NULL,
  name text NOT NULL,
  state text NOT NULL,
  url text,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT forge_checks_pkey PRIMARY KEY (repository_id, sha, name),
  CONSTRAINT forge_checks_state_check CHECK ((state = ANY (ARRAY['pending'::text, 'success'::text, 'failure'::text])))
);

CREATE TABLE forge_deliveries (
  repository_id uuid NOT NULL,
  delivery_id text NOT NULL,
  event text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT forge_deliveries_pkey PRIMARY KEY (repository_id, delivery_id)
);

CREATE TABLE intake_claims (
  token_id uuid NOT NULL,
  idempotency_key text NOT NULL,
  card_id uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT intake_claims_pkey PRIMARY KEY (token_id, idempotency_key)
);

CREATE TABLE intake_tokens (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  digest text NOT NULL,
  name text,
  column_id uuid NOT NULL,
  project_id uuid NOT NULL,
  created_by uuid,
  expires_at timestamp with time zone,
  revoked_at timestamp with time zone,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT intake_tokens_digest_key UNIQUE (digest),
  CONSTRAINT intake_tokens_pkey PRIMARY KEY (id)
);

CREATE TABLE invitations (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  workspace_id uuid NOT NULL,
  invited_by uuid NOT NULL,
  email text,
  role text NOT NULL,
  digest text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  accepted_at timestamp with time zone,
  accepted_by uuid,
  CONSTRAINT invitations_digest_key UNIQUE (digest),
  CONSTRAINT invitations_pkey PRIMARY KEY (id),
  CONSTRAINT invitations_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'admin'::text, 'member'::text, 'viewer'::text])))
);

CREATE TABLE labels (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  project_id uuid NOT NULL,
  name text NOT NULL,
  color text,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT labels_pkey PRIMARY KEY (id)
);

CREATE TABLE mcp_sessions (
  id uuid NOT NULL,
  user_id uuid NOT NULL,
  credential_kind text NOT NULL,
  credential_id uuid,
  protocol_version text NOT NULL,
  initialize jsonb NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  last_used_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT mcp_sessions_pkey PRIMARY KEY (id)
);

CREATE TABLE oauth_clients (
  id text NOT NULL,
  client_name text,
  redirect_uris text[] NOT NULL,
  grant_types text[] NOT NULL,
  response_types text[] NOT NULL,
  token_endpoint_auth_method text NOT NULL,
  application_type text,
  scope text NOT NULL,
  secret_digest text,
  metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  document_expires_at timestamp with time zone,
  CONSTRAINT oauth_clients_pkey PRIMARY KEY (id)
);

CREATE TABLE oauth_codes (
  digest text NOT NULL,
  client_id text NOT NULL,
  user_id uuid NOT NULL,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  scope text NOT NULL,
  resource text NOT NULL,
  workspaces uuid[] NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  used_at timestamp with time zone,
  grant_id uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT oauth_codes_pkey PRIMARY KEY (digest)
);

CREATE TABLE oauth_grants (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  user_id uuid NOT NULL,
  client_id text NOT NULL,
  workspaces uuid[] NOT NULL,
  scope text NOT NULL,
  resource text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  last_used_at timestamp with time zone,
  revoked_at timestamp with time zone,
  CONSTRAINT oauth_grants_pkey PRIMARY KEY (id)
);

CREATE TABLE oauth_tokens (
  digest text NOT NULL,
  grant_id uuid NOT NULL,
  kind text NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  used_at timestamp with time zone,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT oauth_tokens_kind_check CHECK ((kind = ANY (ARRAY['access'::text, 'refresh'::text]))),
  CONSTRAINT oauth_tokens_pkey PRIMARY KEY (digest)
);

CREATE TABLE oidc_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id uuid NOT NULL,
  email text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  last_used_at timestamp with time zone NOT NULL,
  CONSTRAINT oidc_identities_pkey PRIMARY KEY (issuer, subject)
);

CREATE TABLE password_resets (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  user_id uuid NOT NULL,
  digest text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  used_at timestamp with time zone,
  CONSTRAINT password_resets_digest_key UNIQUE (digest),
  CONSTRAINT password_resets_pkey PRIMARY KEY (id)
);

CREATE TABLE project_links (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  project_id uuid NOT NULL,
  url text NOT NULL,
  normalized_url text NOT NULL,
  host text NOT NULL,
  title text,
  note text,
  tags text[] DEFAULT '{}'::text[] NOT NULL,
  relevance text,
  score double precision,
  evidence jsonb,
  evaluation_source text,
  reviewed_by uuid,
  reviewed_at timestamp with time zone,
  review_reason text,
  created_by uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT project_links_evaluation_source_check CHECK ((evaluation_source = ANY (ARRAY['heuristic'::text, 'human'::text]))),
  CONSTRAINT project_links_pkey PRIMARY KEY (id),
  CONSTRAINT project_links_relevance_check CHECK ((relevance = ANY (ARRAY['none'::text, 'low'::text, 'medium'::text, 'high'::text]))),
  CONSTRAINT project_links_unique UNIQUE (project_id, normalized_url)
);

CREATE TABLE projects (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  workspace_id uuid NOT NULL,
  name text NOT NULL,
  ref_prefix text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  archived_at timestamp with time zone,
  automation jsonb DEFAULT '{"pullRequestMerged": true, "pullRequestOpened": true}'::jsonb NOT NULL,
  CONSTRAINT projects_pkey PRIMARY KEY (id)
);

CREATE TABLE pull_requests (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  repository_id uuid NOT NULL,
  number integer NOT NULL,
  title text NOT NULL,
  url text NOT NULL,
  branch text NOT NULL,
  state text NOT NULL,
  head_sha text,
  review text,
  merge_commit_sha text,
  merged_at timestamp with time zone,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT pull_requests_pkey PRIMARY KEY (id),
  CONSTRAINT pull_requests_repository_id_number_key UNIQUE (repository_id, number),
  CONSTRAINT pull_requests_review_check CHECK ((review = ANY (ARRAY['approved'::text, 'changes_requested'::text]))),
  CONSTRAINT pull_requests_state_check CHECK ((state = ANY (ARRAY['open'::text, 'draft'::text, 'merged'::text, 'closed'::text])))
);

CREATE TABLE repositories (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  project_id uuid NOT NULL,
  provider text NOT NULL,
  name text NOT NULL,
  secret_box text NOT NULL,
  created_by uuid,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT repositories_pkey PRIMARY KEY (id),
  CONSTRAINT repositories_provider_check CHECK ((provider = ANY (ARRAY['github'::text, 'gitlab'::text, 'gitea'::text, 'forgejo'::text])))
);

CREATE TABLE signup_attempts (
  email text NOT NULL,
  attempted_at timestamp with time zone NOT NULL,
  CONSTRAINT signup_attempts_pkey PRIMARY KEY (email)
);

CREATE TABLE subtasks (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  card_id uuid NOT NULL,
  title text NOT NULL,
  completed boolean DEFAULT false NOT NULL,
  "position" integer NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT subtasks_pkey PRIMARY KEY (id),
  CONSTRAINT subtasks_position_check CHECK (("position" >= 0))
);

CREATE TABLE users (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  email text NOT NULL,
  full_name text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  kind text DEFAULT 'person'::text NOT NULL,
  CONSTRAINT users_email_key UNIQUE (email),
  CONSTRAINT users_kind_check CHECK ((kind = ANY (ARRAY['person'::text, 'agent'::text]))),
  CONSTRAINT users_pkey PRIMARY KEY (id)
);

CREATE TABLE web_sessions (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  user_id uuid NOT NULL,
  digest text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  last_used_at timestamp with time zone DEFAULT now() NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  revoked_at timestamp with time zone,
  purpose text DEFAULT 'app'::text NOT NULL,
  CONSTRAINT web_sessions_digest_key UNIQUE (digest),
  CONSTRAINT web_sessions_pkey PRIMARY KEY (id),
  CONSTRAINT web_sessions_purpose CHECK ((purpose = ANY (ARRAY['app'::text, 'consent'::text])))
);

CREATE TABLE webhook_deliveries (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  webhook_id uuid NOT NULL,
  event_n bigint,
  event_id text,
  event_type text NOT NULL,
  payload text,
  status text DEFAULT 'pending'::text NOT NULL,
  attempts integer DEFAULT 0 NOT NULL,
  last_status_code integer,
  last_error text,
  failing_since timestamp with time zone,
  next_attempt_at timestamp with time zone NOT NULL,
  locked_until timestamp with time zone,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id),
  CONSTRAINT webhook_deliveries_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text])))
);

CREATE TABLE webhooks (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  workspace_id uuid NOT NULL,
  project_id uuid,
  url text NOT NULL,
  events text[] NOT NULL,
  description text,
  secret_box text NOT NULL,
  enabled boolean DEFAULT true NOT NULL,
  disabled_reason text,
  created_by uuid NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  created_by_credential uuid,
  created_by_kind text,
  CONSTRAINT webhooks_pkey PRIMARY KEY (id)
);

CREATE TABLE workspace_members (
  workspace_id uuid NOT NULL,
  user_id uuid NOT NULL,
  role text NOT NULL,
  joined_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT workspace_members_pkey PRIMARY KEY (workspace_id, user_id),
  CONSTRAINT workspace_members_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'admin'::text, 'member'::text, 'viewer'::text])))
);

CREATE TABLE workspaces (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  name text NOT NULL,
  created_by uuid NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT workspaces_pkey PRIMARY KEY (id)
);

ALTER TABLE agent_activities ADD CONSTRAINT agent_activities_session_id_fkey FOREIGN KEY (session_id) REFERENCES agent_sessions(id) ON DELETE CASCADE;

ALTER TABLE agent_sessions ADD CONSTRAINT agent_sessions_card_id_fkey FOREIGN KEY (card_id) REFERENCES cards(id) ON DELETE CASCADE;

ALTER TABLE agent_sessions ADD CONSTRAINT agent_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE agents ADD CONSTRAINT agents_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE agents ADD CONSTRAINT agents_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE agents ADD CONSTRAINT agents_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE;

ALTER TABLE api_keys ADD CONSTRAINT api_keys_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE board_columns ADD CONSTRAINT board_columns_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;

ALTER TABLE card_assignees ADD CONSTRAINT card_assignees_card_id_fkey FOREIGN KEY (card_id) REFERENCES cards(id) ON DELETE CASCADE;

ALTER TABLE card_assignees ADD CONSTRAINT card_assignees_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE card_commits ADD CONSTRAINT card_commits_card_id_fkey FOREIGN KEY (card_id) REFERENCES cards(id) ON DELETE CASCADE;

ALTER TABLE card_commits ADD CONSTRAINT card_commits_repository_id_fkey FOREIGN KEY (repository_id) REFERENCES repositories(id) ON DELETE CASCADE;

ALTER TABLE card_labels ADD CONSTRAINT card_labels_card_id_fkey FOREIGN KEY (card_id) REFERENCES cards(id) ON DELETE CASCADE;

ALTER TABLE card_labels ADD CONSTRAINT card_labels_label_id_fkey FOREIGN KEY (label_id) REFERENCES labels(id) ON DELETE CASCADE;

ALTER TABLE card_links ADD CONSTRAINT card_links_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE card_links ADD CONSTRAINT card_links_source_id_fkey FOREIGN KEY (source_id) REFERENCES cards(id) ON DELETE CASCADE;

ALTER TABLE card_links ADD CONSTRAINT card_links_target_id_fkey FOREIGN KEY (target_id) REFERENCES cards(id) ON DELETE CASCADE;

ALTER TABLE card_pull_requests ADD CONSTRAINT card_pull_requests_card_id_fkey FOREIGN KEY (card_id) REFERENCES cards(id) ON DELETE CASCADE;

ALTER TABLE card_pull_requests ADD CONSTRAINT card_pull_requests_pull_request_id_fkey FOREIGN KEY (pull_request_id) REFERENCES pull_requests(id) ON DELETE CASCADE;

ALTER TABLE cards ADD CONSTRAINT cards_column_id_fkey FOREIGN KEY (column_id) REFERENCES board_columns(id);

ALTER TABLE cards ADD CONSTRAINT cards_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE cards ADD CONSTRAINT cards_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;

ALTER TABLE comments ADD CONSTRAINT comments_author_id_fkey FOREIGN KEY (author_id) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE comments ADD CONSTRAINT comments_card_id_fkey FOREIGN KEY (card_id) REFERENCES cards(id) ON DELETE CASCADE;

ALTER TABLE deployments ADD CONSTRAINT deployments_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE deployments ADD CONSTRAINT deployments_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;

ALTER TABLE forge_checks ADD CONSTRAINT forge_checks_repository_id_fkey FOREIGN KEY (repository_id) REFERENCES repositories(id) ON DELETE CASCADE;

ALTER TABLE forge_deliveries ADD CONSTRAINT forge_deliveries_repository_id_fkey FOREIGN KEY (repository_id) REFERENCES repositories(id) ON DELETE CASCADE;

ALTER TABLE intake_claims ADD CONSTRAINT intake_claims_token_id_fkey FOREIGN KEY (token_id) REFERENCES intake_tokens(id) ON DELETE CASCADE;

ALTER TABLE intake_tokens ADD CONSTRAINT intake_tokens_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE intake_tokens ADD CONSTRAINT intake_tokens_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;

ALTER TABLE invitations ADD CONSTRAINT invitations_accepted_by_fkey FOREIGN KEY (accepted_by) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE invitations ADD CONSTRAINT invitations_invited_by_fkey FOREIGN KEY (invited_by) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE invitations ADD CONSTRAINT invitations_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE;

ALTER TABLE labels ADD CONSTRAINT labels_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;

ALTER TABLE mcp_sessions ADD CONSTRAINT mcp_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE oauth_codes ADD CONSTRAINT oauth_codes_client_id_fkey FOREIGN KEY (client_id) REFERENCES oauth_clients(id) ON DELETE CASCADE;

ALTER TABLE oauth_codes ADD CONSTRAINT oauth_codes_grant_id_fkey FOREIGN KEY (grant_id) REFERENCES oauth_grants(id) ON DELETE SET NULL;

ALTER TABLE oauth_codes ADD CONSTRAINT oauth_codes_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE oauth_grants ADD CONSTRAINT oauth_grants_client_id_fkey FOREIGN KEY (client_id) REFERENCES oauth_clients(id) ON DELETE CASCADE;

ALTER TABLE oauth_grants ADD CONSTRAINT oauth_grants_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE oauth_tokens ADD CONSTRAINT oauth_tokens_grant_id_fkey FOREIGN KEY (grant_id) REFERENCES oauth_grants(id) ON DELETE CASCADE;

ALTER TABLE oidc_identities ADD CONSTRAINT oidc_identities_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE password_resets ADD CONSTRAINT password_resets_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE project_links ADD CONSTRAINT project_links_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE project_links ADD CONSTRAINT project_links_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;

ALTER TABLE project_links ADD CONSTRAINT project_links_reviewed_by_fkey FOREIGN KEY (reviewed_by) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE projects ADD CONSTRAINT projects_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE;

ALTER TABLE pull_requests ADD CONSTRAINT pull_requests_repository_id_fkey FOREIGN KEY (repository_id) REFERENCES repositories(id) ON DELETE CASCADE;

ALTER TABLE repositories ADD CONSTRAINT repositories_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE repositories ADD CONSTRAINT repositories_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;

ALTER TABLE subtasks ADD CONSTRAINT subtasks_card_id_fkey FOREIGN KEY (card_id) REFERENCES cards(id) ON DELETE CASCADE;

ALTER TABLE web_sessions ADD CONSTRAINT web_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_webhook_id_fkey FOREIGN KEY (webhook_id) REFERENCES webhooks(id) ON DELETE CASCADE;

ALTER TABLE webhooks ADD CONSTRAINT webhooks_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE webhooks ADD CONSTRAINT webhooks_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;

ALTER TABLE webhooks ADD CONSTRAINT webhooks_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE;

ALTER TABLE workspace_members ADD CONSTRAINT workspace_members_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE workspace_members ADD CONSTRAINT workspace_members_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE;

ALTER TABLE workspaces ADD CONSTRAINT workspaces_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id);

CREATE INDEX agent_activities_by_session ON public.agent_activities USING btree (session_id, n);

CREATE INDEX agent_sessions_by_card ON public.agent_sessions USING btree (card_id, created_at DESC, id DESC);

CREATE INDEX agent_sessions_by_project ON public.agent_sessions USING btree (project_id, created_at DESC, id DESC);

CREATE UNIQUE INDEX agent_sessions_live_card ON public.agent_sessions USING btree (card_id) WHERE (status = ANY (ARRAY['active'::text, 'awaitingInput'::text, 'error'::text]));

CREATE INDEX agent_sessions_live_lease ON public.agent_sessions USING btree (lease_expires_at) WHERE (status = ANY (ARRAY['active'::text, 'awaitingInput'::text, 'error'::text]));

CREATE INDEX agents_workspace ON public.agents USING btree (workspace_id, created_at);

CREATE INDEX api_keys_user ON public.api_keys USING btree (user_id);

CREATE INDEX card_assignees_user ON public.card_assignees USING btree (user_id, card_id);

CREATE INDEX card_commits_sha ON public.card_commits USING btree (sha);

CREATE INDEX card_labels_label ON public.card_labels USING btree (label_id);

CREATE INDEX card_links_target ON public.card_links USING btree (target_id);

CREATE INDEX card_order_counts_bucket ON public.card_order_counts USING btree (column_id, bucket) INCLUDE (delta);

CREATE INDEX card_pull_requests_pr ON public.card_pull_requests USING btree (pull_request_id);

CREATE INDEX cards_archived ON public.cards USING btree (project_id, archived_at DESC, id) WHERE (archived_at IS NOT NULL);

CREATE INDEX cards_board ON public.cards USING btree (project_id, column_id, sort_key);

CREATE INDEX cards_intake_token ON public.cards USING btree (intake_token_id) WHERE (intake_token_id IS NOT NULL);

CREATE INDEX cards_queue ON public.cards USING btree (column_id, (
CASE priority
    WHEN 'urgent'::text THEN 0
    WHEN 'high'::text THEN 1
    WHEN 'medium'::text THEN 2
    ELSE 3
END), sort_key, id) WHERE ((NOT claimed) AND (archived_at IS NULL));

CREATE INDEX cards_search_trgm ON public.cards USING gin ((((title || ' '::text) || COALESCE(description, ''::text))) gin_trgm_ops);

CREATE INDEX cards_title_trgm ON public.cards USING gin (title gin_trgm_ops);

CREATE INDEX comments_card ON public.comments USING btree (card_id, n);

CREATE INDEX desktop_releases_latest ON public.desktop_releases USING btree (platform, publish_order DESC);

CREATE INDEX events_by_age ON public.events USING btree (created_at);

CREATE INDEX events_by_card ON public.events USING btree (card_id, tx, n) WHERE (card_id IS NOT NULL);

CREATE INDEX events_by_project ON public.events USING btree (project_id, tx, n);

CREATE INDEX forge_deliveries_created ON public.forge_deliveries USING btree (created_at);

CREATE INDEX intake_claims_age ON public.intake_claims USING btree (created_at);

CREATE INDEX intake_tokens_project ON public.intake_tokens USING btree (project_id, created_at);

CREATE INDEX invitations_workspace ON public.invitations USING btree (workspace_id);

CREATE UNIQUE INDEX labels_project_name ON public.labels USING btree (project_id, lower(name));

CREATE INDEX mcp_sessions_used ON public.mcp_sessions USING btree (last_used_at);

CREATE INDEX mcp_sessions_user_used ON public.mcp_sessions USING btree (user_id, last_used_at);

CREATE INDEX oauth_grants_user ON public.oauth_grants USING btree (user_id, created_at);

CREATE INDEX oauth_tokens_grant ON public.oauth_tokens USING btree (grant_id);

CREATE INDEX oidc_identities_user ON public.oidc_identities USING btree (user_id);

CREATE INDEX password_resets_user ON public.password_resets USING btree (user_id);

CREATE INDEX project_links_host ON public.project_links USING btree (project_id, host);

CREATE INDEX project_links_list ON public.project_links USING btree (project_id, created_at DESC, id DESC);

CREATE INDEX project_links_relevance ON public.project_links USING btree (project_id, relevance);

CREATE INDEX projects_workspace ON public.projects USING btree (workspace_id);

CREATE INDEX pull_requests_head ON public.pull_requests USING btree (repository_id, head_sha);

CREATE INDEX pull_requests_merge_commit ON public.pull_requests USING btree (merge_commit_sha) WHERE (merge_commit_sha IS NOT NULL);

CREATE UNIQUE INDEX repositories_project_name ON public.repositories USING btree (project_id, provider, lower(name));

CREATE INDEX subtasks_card ON public.subtasks USING btree (card_id, "position");

CREATE INDEX web_sessions_user ON public.web_sessions USING btree (user_id);

CREATE INDEX webhook_deliveries_by_webhook ON public.webhook_deliveries USING btree (webhook_id, created_at DESC);

CREATE INDEX webhook_deliveries_due ON public.webhook_deliveries USING btree (next_attempt_at) WHERE (status = 'pending'::text);

CREATE INDEX webhooks_by_credential ON public.webhooks USING btree (created_by_credential) WHERE (created_by_credential IS NOT NULL);

CREATE INDEX webhooks_enabled_by_workspace ON public.webhooks USING btree (workspace_id) WHERE enabled;

CREATE INDEX workspace_members_user ON public.workspace_members USING btree (user_id);

CREATE TRIGGER agent_sessions_claimed AFTER INSERT OR DELETE OR UPDATE OF status ON public.agent_sessions FOR EACH ROW EXECUTE FUNCTION agent_sessions_claimed();

CREATE TRIGGER api_keys_disable_webhooks AFTER DELETE OR UPDATE OF revoked_at ON public.api_keys FOR EACH ROW EXECUTE FUNCTION board_disable_credential_webhooks('disabled because the API key that created it was revoked; a member can PATCH {"enabled": true} to take it over with their own credential');

CREATE TRIGGER api_keys_revoked AFTER DELETE OR UPDATE OF revoked_at ON public.api_keys FOR EACH ROW EXECUTE FUNCTION board_notify_revoked();

CREATE TRIGGER cards_count_deleted AFTER DELETE ON public.cards REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION board_count_deleted();

CREATE TRIGGER cards_count_inserted AFTER INSERT ON public.cards REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION board_count_inserted();

CREATE TRIGGER cards_count_updated AFTER UPDATE ON public.cards REFERENCING OLD TABLE AS old_cards NEW TABLE AS new_cards FOR EACH STATEMENT EXECUTE FUNCTION board_count_updated();

CREATE TRIGGER cards_json BEFORE INSERT OR UPDATE ON public.cards FOR EACH ROW EXECUTE FUNCTION board_card_json();

CREATE TRIGGER events_written AFTER INSERT ON public.events FOR EACH ROW EXECUTE FUNCTION board_event_written();

CREATE TRIGGER intake_tokens_revoked AFTER DELETE OR UPDATE OF revoked_at ON public.intake_tokens FOR EACH ROW EXECUTE FUNCTION board_notify_revoked();

CREATE TRIGGER oauth_grants_disable_webhooks AFTER DELETE OR UPDATE OF revoked_at ON public.oauth_grants FOR EACH ROW EXECUTE FUNCTION board_disable_credential_webhooks('disabled because the OAuth grant that created it was revoked; a member can PATCH {"enabled": true} to take it over with their own credential');

CREATE TRIGGER oauth_grants_revoked AFTER DELETE OR UPDATE OF revoked_at ON public.oauth_grants FOR EACH ROW EXECUTE FUNCTION board_notify_revoked();

CREATE TRIGGER projects_ref_sequence AFTER INSERT OR DELETE ON public.projects FOR EACH ROW EXECUTE FUNCTION board_project_ref_sequence();

CREATE TRIGGER web_sessions_disable_webhooks AFTER UPDATE OF revoked_at ON public.web_sessions FOR EACH ROW EXECUTE FUNCTION board_disable_credential_webhooks('disabled because the web session that created it was signed out; a member can PATCH {"enabled": true} to take it over with their own credential');

CREATE TRIGGER web_sessions_revoked AFTER DELETE OR UPDATE OF revoked_at ON public.web_sessions FOR EACH ROW EXECUTE FUNCTION board_notify_revoked();

CREATE TRIGGER workspace_members_left AFTER DELETE ON public.workspace_members FOR EACH ROW EXECUTE FUNCTION board_notify_member_left();
