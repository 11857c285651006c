-- Writes that scale (issue 14): no card write holds a lock on a shared row across its commit.
-- One durable commit costs 2-3 ms on our machines, so a lock held through COMMIT caps a whole
-- project at a few hundred writes per second.

-- Card order: a sparse key per card instead of a dense position. A create or a move writes its
-- own row only, with a key between its neighbours'; the ordinal `position` of the API is
-- computed when read. `numeric` is exact arbitrary precision, so a key between two keys is
-- plain arithmetic done in the very statement that writes it (see board_key_between).
ALTER TABLE cards ADD COLUMN sort_key numeric;
UPDATE cards SET sort_key = position + 1;
ALTER TABLE cards ALTER COLUMN sort_key SET NOT NULL;
ALTER TABLE cards DROP CONSTRAINT cards_position_unique;
ALTER TABLE cards DROP COLUMN position;
-- Unique, so the order is total with no tie: two writers that draw the same key at the same
-- moment make one of them fail and retry with a fresh key. Checked at the end of each
-- statement (not per row) so a rebalance can renumber a column in one UPDATE.
ALTER TABLE cards ADD CONSTRAINT cards_order_unique UNIQUE (column_id, sort_key) DEFERRABLE INITIALLY IMMEDIATE;

-- Counting a card's ordinal position must not cost a scan of every card before it (a column of
-- 100,000 cards, a search page of 50 of them). Cards are grouped in buckets of 128 key units
-- (floor(floor(sort_key) / 128)); this table holds how many cards each bucket of each column gained or
-- lost, one row per statement that changed it, written by the triggers below in the same
-- transaction as the change (so it agrees with any snapshot) and summed into one row per bucket
-- by a background compaction (board/orderCounts.ts). A position is the sum over the buckets
-- before the card's plus a count inside its own bucket: n / 128 + 128 index entries at most for
-- a column of n cards (keys are whole numbers 1..n after a rebalance, and an append adds 1). A
-- small bucket keeps the count inside it cheap for appends, whose rows are too fresh for an
-- index-only scan.
CREATE TABLE card_order_counts (
  column_id uuid NOT NULL,
  bucket numeric NOT NULL,
  delta integer NOT NULL
);
-- delta in the index: summing buckets is an index-only scan once vacuum has seen the rows
CREATE INDEX card_order_counts_bucket ON card_order_counts (column_id, bucket) INCLUDE (delta);
INSERT INTO card_order_counts (column_id, bucket, delta)
  SELECT column_id, floor(floor(sort_key) / 128), count(*) FROM cards GROUP BY 1, 2;

CREATE FUNCTION board_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO card_order_counts (column_id, bucket, delta)
    SELECT column_id, floor(floor(sort_key) / 128), count(*) FROM changed GROUP BY 1, 2;
  RETURN NULL;
END $$;

CREATE FUNCTION board_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO card_order_counts (column_id, bucket, delta)
    SELECT column_id, floor(floor(sort_key) / 128), -count(*) FROM changed GROUP BY 1, 2;
  RETURN NULL;
END $$;

CREATE FUNCTION board_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO card_order_counts (column_id, bucket, delta)
    SELECT column_id, bucket, sum(d) FROM (
      SELECT o.column_id, floor(floor(o.sort_key) / 128) AS bucket, -1 AS d FROM old_cards o JOIN new_cards n ON n.id = o.id
      UNION ALL
      SELECT n.column_id, floor(floor(n.sort_key) / 128), 1 FROM old_cards o JOIN new_cards n ON n.id = o.id
    ) moved GROUP BY 1, 2 HAVING sum(d) <> 0;
  RETURN NULL;
END $$;

CREATE TRIGGER cards_count_inserted AFTER INSERT ON cards REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION board_count_inserted();
CREATE TRIGGER cards_count_deleted AFTER DELETE ON cards REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION board_count_deleted();
CREATE TRIGGER cards_count_updated AFTER UPDATE ON cards REFERENCING OLD TABLE AS old_cards NEW TABLE AS new_cards
  FOR EACH STATEMENT EXECUTE FUNCTION board_count_updated();

-- Bumped by every rebalance of a column's keys; a write that computed its key from keys a
-- rebalance has since replaced sees the bump and runs again (board/orderKeys.ts).
ALTER TABLE board_columns ADD COLUMN order_epoch integer NOT NULL DEFAULT 0;

-- A key strictly between lo and hi (NULL: no neighbour on that side). A random draw from the
-- middle of the gap, so concurrent writers into one gap rarely draw the same key; digits grow
-- only with repeated inserts into one gap (about 0.6 digits each), and a rebalance resets them.
CREATE FUNCTION board_key_between(lo numeric, hi numeric) RETURNS numeric
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN lo IS NULL AND hi IS NULL THEN 1 + round(random()::numeric / 2, 6)
    WHEN hi IS NULL THEN floor(lo) + 1 + round(random()::numeric / 2, 6)
    WHEN lo IS NULL THEN ceil(hi) - 1 - round(random()::numeric / 2, 6)
    ELSE round(lo + (hi - lo) * (0.25 + round(random()::numeric / 2, 6)),
      greatest(0, ceil(-log(hi - lo))::int) + 6)
  END
$$;

-- Short refs: one sequence per project. nextval takes no lock that lives until commit, and a
-- sequence is WAL-logged ahead of the values it hands out, so after a crash it never falls
-- behind a card that committed durably (that card's commit flushed the sequence's record).
-- Numbers of rolled-back or failed creates are skipped: refs may have gaps, never repeats.
CREATE FUNCTION board_ref_sequence(project uuid) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 'card_ref_' || replace(project::text, '-', '') $$;

CREATE FUNCTION board_next_ref(project uuid) RETURNS bigint
LANGUAGE sql VOLATILE AS $$ SELECT nextval(board_ref_sequence(project)::regclass) $$;

CREATE FUNCTION board_project_ref_sequence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format('CREATE SEQUENCE %I', board_ref_sequence(NEW.id));
    RETURN NEW;
  END IF;
  EXECUTE format('DROP SEQUENCE IF EXISTS %I', board_ref_sequence(OLD.id));
  RETURN OLD;
END $$;

DO $$
DECLARE p record;
BEGIN
  FOR p IN SELECT id, next_ref_number FROM projects LOOP
    EXECUTE format('CREATE SEQUENCE %I START %s', board_ref_sequence(p.id), p.next_ref_number);
  END LOOP;
END $$;

CREATE TRIGGER projects_ref_sequence AFTER INSERT OR DELETE ON projects
  FOR EACH ROW EXECUTE FUNCTION board_project_ref_sequence();

ALTER TABLE projects DROP COLUMN next_ref_number;
