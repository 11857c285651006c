-- The update trigger of the order counts (0006, 0025) joined its two transition tables on id.
-- A PL/pgSQL statement without parameters keeps the plan of its first run for the session, and
-- a session's first UPDATE of cards is nearly always a one-card move: the plan then is a nested
-- loop, which a later UPDATE of thousands of rows (a rebalance, a column's cards moving) runs
-- as old rows × new rows. Measured on PostgreSQL 15: a 4,200-card rebalance after a one-card
-- update in the same session took 2,433 ms against 101 ms on a fresh session, with the
-- column's writers held back all the while (the rebalance holds its row FOR UPDATE).
--
-- The join paired each old row with its own new row, which an UPDATE's transition tables hold
-- anyway (every updated row once in each, with the same id): the counts are the old rows'
-- buckets minus and the new rows' buckets plus, each table read once, whatever plan is kept.
CREATE OR REPLACE FUNCTION board_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
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
END $$;
