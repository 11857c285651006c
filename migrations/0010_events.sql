-- The event log (issue 18): one row per change, written in the change's own transaction (a
-- transactional outbox), read by history, the live streams and the webhook fan-out.
--
-- Order: an event's place is (tx, n), its writing transaction's id and then a global counter.
-- Neither alone orders events by commit: a transaction can take its number before another and
-- commit after it, and a reader that had passed the later one would skip it. So readers see only
-- events whose transaction is older than every transaction still running in this database
-- (events/EventLog.ts, FINAL_BELOW): those are final, and every event that becomes visible
-- later has a larger tx, so a cursor (tx, n) never skips one and never sees one twice.
--
-- No foreign keys: a key check would lock the project row FOR KEY SHARE in every write, on
-- the hottest shared row there is; the events of a deleted project are unreachable (access goes
-- through the project) and leave with the retention sweep.
CREATE TABLE events (
  n bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- the writing transaction's id (an xid8, which fits a bigint; a bigint column reads as a number
  -- in every client, where some drivers cannot decode xid8)
  tx bigint NOT NULL DEFAULT pg_current_xact_id()::text::bigint,
  workspace_id uuid NOT NULL,
  project_id uuid NOT NULL,
  -- the card the event belongs to (a card, or its label, subtask or link), for a card's history
  card_id uuid,
  type text NOT NULL,
  actor json NOT NULL,
  data json NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX events_by_project ON events (project_id, tx, n);
CREATE INDEX events_by_card ON events (card_id, tx, n) WHERE card_id IS NOT NULL;
CREATE INDEX events_by_age ON events (created_at);

-- No NOTIFY here: a transaction that NOTIFYs takes PostgreSQL's global notification lock at
-- commit, which would serialise every write's commit behind one lock. The writing instance
-- notifies after the commit instead, batched, in a statement of its own (events/EventLog.ts).
