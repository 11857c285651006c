-- Cards can be archived and restored (issue 33 part 4). An archived card keeps its row, its ref,
-- its column, its labels, subtasks, comments and history, but it leaves its column's order: its
-- `sort_key` is NULL while `archived_at` is set (the CHECK below), so it holds no key a live card
-- could draw, counts in no bucket of card_order_counts, and the board, search and the queue leave
-- it out. A restore draws a key at the end of its column (core/src/board/CardArchive.ts).
ALTER TABLE cards ADD COLUMN archived_at timestamptz;
ALTER TABLE cards ALTER COLUMN sort_key DROP NOT NULL;
ALTER TABLE cards ADD CONSTRAINT cards_archived_unordered CHECK ((archived_at IS NULL) = (sort_key IS NOT NULL));

-- The order counts count live cards only: a card without a key is in no bucket. An archive is an
-- update that takes the card out of its bucket (-1), a restore one that puts it into one (+1).
CREATE OR REPLACE FUNCTION board_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO card_order_counts (column_id, bucket, delta)
    SELECT column_id, floor(floor(sort_key) / 128), count(*) FROM changed WHERE sort_key IS NOT NULL GROUP BY 1, 2;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION board_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO card_order_counts (column_id, bucket, delta)
    SELECT column_id, floor(floor(sort_key) / 128), -count(*) FROM changed WHERE sort_key IS NOT NULL GROUP BY 1, 2;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION board_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO card_order_counts (column_id, bucket, delta)
    SELECT column_id, bucket, sum(d) FROM (
      SELECT o.column_id, floor(floor(o.sort_key) / 128) AS bucket, -1 AS d FROM old_cards o JOIN new_cards n ON n.id = o.id
        WHERE o.sort_key IS NOT NULL
      UNION ALL
      SELECT n.column_id, floor(floor(n.sort_key) / 128), 1 FROM old_cards o JOIN new_cards n ON n.id = o.id
        WHERE n.sort_key IS NOT NULL
    ) moved GROUP BY 1, 2 HAVING sum(d) <> 0;
  RETURN NULL;
END $$;

-- The queue walks live, unclaimed cards only.
DROP INDEX cards_queue;
CREATE INDEX cards_queue ON cards (column_id,
  (CASE priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END), sort_key, id)
  WHERE NOT claimed AND archived_at IS NULL;

-- The archived cards of a project, newest first (GET /v1/board/{projectId}?archived=true).
CREATE INDEX cards_archived ON cards (project_id, archived_at DESC, id) WHERE archived_at IS NOT NULL;
