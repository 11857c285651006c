-- Assignees, due dates and comments (issue 19).

ALTER TABLE cards ADD COLUMN due_at timestamptz;

-- A card's assignees, members of its workspace (checked when assigned; members are never removed
-- from a workspace today: if that comes, it must drop their rows here in the same transaction).
-- created_at orders a card's assigneeIds (then the user id), so the list is stable across edits.
CREATE TABLE card_assignees (
  card_id uuid NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (card_id, user_id)
);
-- the assignee filters (board, search) and a user's deletion
CREATE INDEX card_assignees_user ON card_assignees (user_id, card_id);

-- Comments on cards. `author` is the event log's actor JSON, named when the comment was written
-- (an OAuth client is an agent named after its client); author_id and author_kind (the
-- credential's kind) say who may edit it (Comments.ts). `n` orders a card's comments as they were
-- written (two in the same millisecond keep their order).
CREATE TABLE comments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  n bigint GENERATED ALWAYS AS IDENTITY,
  card_id uuid NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  author_id uuid REFERENCES users(id) ON DELETE SET NULL,
  author_kind text NOT NULL,
  author json NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX comments_card ON comments (card_id, n);
