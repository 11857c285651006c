-- Event ids across a restore into another PostgreSQL server. (No 0029: that number was a
-- demonstration's, committed and reverted (74b5f70, 18092d4); a database that ran it must not
-- skip this one.)
--
-- An event's place is (tx, n), tx its transaction's id (0010_events.sql), and readers take only
-- events older than every running transaction (FINAL_BELOW). Transaction ids are the server's
-- own: `board restore` (pg_restore) into a fresh server brings events whose tx lies far above
-- the new server's ids. Measured with a second PostgreSQL 15 server: after the restore the
-- project's history answered no event, the board's cursor was 24 zeros, and a card created
-- there got an id that sorted before every restored one, so a client resuming from its last
-- event id heard of no change at all (until the new server had used up the ids in between:
-- 716,776 transactions in that test).
--
-- So tx is the transaction's id plus an offset, zero until a restore needs one, and readers add
-- the same offset to the ids they compare with. board_rebase_event_clock raises the offset so
-- that every later transaction writes above every event there is; the migration run calls it
-- (infra/Migrations.ts), so a server started on a restored database, by `board restore` or by
-- hand, is right before it serves. Ids written before stay as they were, so the cursors clients
-- hold keep their meaning. The embedded database's backup is a copy of its files, ids included:
-- there the offset stays zero.
CREATE TABLE event_clock (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  xid_offset bigint NOT NULL DEFAULT 0 CHECK (xid_offset >= 0)
);
INSERT INTO event_clock DEFAULT VALUES;

-- An event's tx: the writing transaction's id, on the clock. PL/pgSQL keeps the function's plan
-- for the session; as an SQL function (not inlined, for its sub-select) it was planned again at
-- every insert: 0.20 ms a one-row insert against 0.13-0.14 with the bare default, 0.145 this way
-- (pgbench, prepared, PostgreSQL 15).
CREATE FUNCTION board_event_tx() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RETURN pg_current_xact_id()::text::bigint + (SELECT xid_offset FROM event_clock);
END
$$;
ALTER TABLE events ALTER COLUMN tx SET DEFAULT board_event_tx();

-- Raises the offset until the next transaction id, on the clock, is above the newest event of
-- every project (one index probe each, events_by_project); changes nothing when it already is.
-- Only projects that exist count: the events of a deleted one are read by nobody (0010).
-- Returns the offset.
CREATE FUNCTION board_rebase_event_clock() RETURNS bigint LANGUAGE sql VOLATILE AS $$
  UPDATE event_clock SET xid_offset = needed.o
  FROM (
    SELECT max(x.tx) + 1 - pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS o
    FROM projects p
    CROSS JOIN LATERAL (SELECT e.tx FROM events e WHERE e.project_id = p.id ORDER BY e.tx DESC LIMIT 1) x
  ) needed
  WHERE needed.o > event_clock.xid_offset;
  SELECT xid_offset FROM event_clock;
$$;
