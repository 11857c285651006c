-- Claims and agent sessions (issue 19): an agent claims a card by opening a session on it with a
-- lease; while the session is live (active, awaitingInput or error) and its lease unexpired, the
-- card is the agent's. A lease that passes makes the session stale (a sweep in every server,
-- and every claim and read treats an expired lease as not holding).

-- Assignees are built beside this (migration 0012); the work queue's `assignee` filter reads
-- this table, so it is created here too when that migration has not made it (same shape).
CREATE TABLE IF NOT EXISTS card_assignees (
  card_id uuid NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (card_id, user_id)
);

CREATE TABLE agent_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  card_id uuid NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  -- no key to projects: the card's cascade removes a project's sessions, and a key check would
  -- lock the project row in every claim
  project_id uuid NOT NULL,
  -- who owns the session: the user, and the credential acting (an API key, an OAuth grant, a
  -- session); the same user through another credential is another actor
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  credential_kind text NOT NULL,
  credential_id uuid,
  -- the actor as named when the session was opened (events/EventLog.ts's actorSql)
  actor_type text NOT NULL,
  actor_name text,
  status text NOT NULL CHECK (status IN ('active', 'awaitingInput', 'error', 'complete', 'released', 'stale')),
  ttl_seconds int NOT NULL CHECK (ttl_seconds BETWEEN 30 AND 3600),
  lease_expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- At most one live session per card: the final guard of claims and of the work queue, and the
-- one indexed lookup that gives a card its `claim`.
CREATE UNIQUE INDEX agent_sessions_live_card ON agent_sessions (card_id)
  WHERE status IN ('active', 'awaitingInput', 'error');
-- The sweep's scan: live sessions by lease end.
CREATE INDEX agent_sessions_live_lease ON agent_sessions (lease_expires_at)
  WHERE status IN ('active', 'awaitingInput', 'error');
CREATE INDEX agent_sessions_by_card ON agent_sessions (card_id, created_at DESC, id DESC);
CREATE INDEX agent_sessions_by_project ON agent_sessions (project_id, created_at DESC, id DESC);

-- Whether a live session (active, awaitingInput or error) holds the card, whatever its lease:
-- kept by the one trigger below in the transaction of every session change, so the work queue's
-- index can leave claimed cards out. Not part of the card's REST shape (claim comes from the
-- sessions and their leases, board/claimSql.ts).
ALTER TABLE cards ADD COLUMN claimed boolean NOT NULL DEFAULT false;

-- Recomputes the card's flag from its sessions on every insert, status change and delete (a
-- lease renewal changes no status, so it costs nothing). Writes only when the flag changes, so a
-- change between live statuses locks no card row. Takers lock the card before its sessions
-- (AgentSessions.ts); the sweep locks both with SKIP LOCKED, so this card update never waits in
-- a way that could deadlock.
CREATE FUNCTION agent_sessions_claimed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.card_id ELSE NEW.card_id END;
  live boolean := EXISTS (SELECT 1 FROM agent_sessions s
    WHERE s.card_id = target AND s.status IN ('active', 'awaitingInput', 'error'));
BEGIN
  UPDATE cards SET claimed = live WHERE id = target AND claimed IS DISTINCT FROM live;
  RETURN NULL;
END $$;

CREATE TRIGGER agent_sessions_claimed AFTER INSERT OR UPDATE OF status OR DELETE ON agent_sessions
  FOR EACH ROW EXECUTE FUNCTION agent_sessions_claimed();

-- The work queue's order within a column (priority, then the column's order), so taking the
-- next card of a column walks this index from its start instead of sorting the column. Only
-- unclaimed cards: with many cards of a column claimed, the walk no longer passes each of them.
-- A card whose lease has passed stays out until the sweep marks its session stale (about a
-- second); a direct claim (POST /v1/cards/{id}/claim) checks the lease itself and takes it at once.
CREATE INDEX cards_queue ON cards (column_id,
  (CASE priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END), sort_key, id)
  WHERE NOT claimed;

CREATE TABLE agent_activities (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  session_id uuid NOT NULL REFERENCES agent_sessions(id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('thought', 'action', 'elicitation', 'response', 'error')),
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- the order activities were written in (several can share a microsecond)
  n bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX agent_activities_by_session ON agent_activities (session_id, n);
