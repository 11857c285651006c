-- Column kinds (issue 28): what a column holds in the workflow, so what reads "work waiting"
-- (the agent queue, overdue marks) goes by the kind and never by a column's name or place.
-- todo: work waiting; in_progress: work under way; done: finished work.
ALTER TABLE board_columns ADD COLUMN kind text NOT NULL DEFAULT 'in_progress'
  CONSTRAINT board_columns_kind CHECK (kind IN ('todo', 'in_progress', 'done'));

-- Existing boards, per project in board order: the first column waits (todo), the last is done
-- when there is more than one, the rest are under way. A one-column board is all todo, so its
-- cards stay in the queue.
UPDATE board_columns bc SET kind = CASE
    WHEN o.position = o.first THEN 'todo'
    WHEN o.position = o.last THEN 'done'
    ELSE 'in_progress'
  END
FROM (
  SELECT id, position,
    min(position) OVER (PARTITION BY project_id) AS first,
    max(position) OVER (PARTITION BY project_id) AS last
  FROM board_columns
) o
WHERE o.id = bc.id;

-- every writer names the kind (core/board/Columns.ts, Workspaces.ts): no silent default
ALTER TABLE board_columns ALTER COLUMN kind DROP DEFAULT;
