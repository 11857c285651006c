-- Webhooks (issue 18): endpoints that receive the events of a workspace or a project, and one
-- delivery per (webhook, event), created in the event's own transaction by the trigger below, so
-- an event is never lost between its commit and its fan-out, and a rolled-back change leaves none.
CREATE TABLE webhooks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  -- NULL: every project of the workspace
  project_id uuid REFERENCES projects(id) ON DELETE CASCADE,
  url text NOT NULL,
  -- event types, or '{*}' for all
  events text[] NOT NULL,
  description text,
  -- the signing secret, AES-256-GCM under a key derived from the server SECRET
  -- (webhooks/secretBox.ts): HMAC signing needs the raw secret, so a digest cannot do
  secret_box text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  created_by uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- what the trigger reads for every event: only enabled webhooks, by workspace
CREATE INDEX webhooks_enabled_by_workspace ON webhooks (workspace_id) WHERE enabled;

CREATE TABLE webhook_deliveries (
  -- sent as Board-Delivery, the same on every attempt
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  -- the event (events.n); NULL for a ping, which is not in the log
  event_n bigint,
  event_id text,
  event_type text NOT NULL,
  -- the exact body: a ping's is set at creation, an event's at its first claim (built from the
  -- log by the same code as the API's JSON) and never changed after, so the same Board-Delivery
  -- never carries two payloads
  payload text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error text,
  -- the first failed attempt of the current failing streak: 3 days of it disable the webhook
  failing_since timestamptz,
  next_attempt_at timestamptz NOT NULL,
  -- a claim: an instance that dies mid-attempt loses it when this passes
  locked_until timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at DESC);

-- The fan-out, in the event's own transaction: one pending delivery per enabled webhook of the
-- event's workspace (all its projects, or this one) whose events include the type or '*'. With no
-- webhook in the workspace this is one index probe. Times are the event's own (the service's
-- clock). No NOTIFY here (see 0010): the writer tells other instances after its commit.
CREATE FUNCTION board_event_written() RETURNS trigger LANGUAGE plpgsql AS $$
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
END $$;

CREATE TRIGGER events_written AFTER INSERT ON events
  FOR EACH ROW EXECUTE FUNCTION board_event_written();
