-- The board reads each column's cards in the column's order (board/boardJson.ts): by project,
-- column and key, so one index walk per column gives them in order with nothing to sort. The
-- column's own index (cards_order_unique: column, key) would serve too, but the planner only
-- takes it when its estimate of a column's cards is small, and that estimate is the table's
-- average column: on a database whose cards sit in a few large columns it scanned the whole
-- table once per column (200 ms for a 1,000-card board of 5 columns among 11,000 cards). With
-- the project in the condition the estimate is the project's column, and the index answers it.
--
-- It replaces cards_project (project_id), whose queries it answers by its first column. A write
-- touches as many indexes as before: every card insert adds an entry to each, and a move, which
-- changes column_id and sort_key, already wrote a new entry to every index of cards (no HOT
-- update is possible while cards_order_unique covers those columns).
CREATE INDEX cards_board ON cards (project_id, column_id, sort_key);
DROP INDEX cards_project;
