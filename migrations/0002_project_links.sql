-- Project links: external URLs stored per project with their relevance to the board.
-- Uniqueness is on the normalised URL, so two submissions of one page store one row even
-- when they race.
CREATE TABLE project_links (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  url text NOT NULL,
  normalized_url text NOT NULL,
  host text NOT NULL,
  title text,
  note text,
  tags text[] NOT NULL DEFAULT '{}',
  relevance text CHECK (relevance IN ('none', 'low', 'medium', 'high')),
  score double precision,
  evidence jsonb,
  evaluation_source text CHECK (evaluation_source IN ('heuristic', 'human')),
  reviewed_by uuid REFERENCES users(id) ON DELETE SET NULL,
  reviewed_at timestamptz,
  review_reason text,
  created_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT project_links_unique UNIQUE (project_id, normalized_url)
);
CREATE INDEX project_links_list ON project_links(project_id, created_at DESC, id DESC);
CREATE INDEX project_links_relevance ON project_links(project_id, relevance);
