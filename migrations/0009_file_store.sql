-- Where the servers on this database store desktop build files: a local folder (DATA_DIR/files
-- of the server that started last) or NULL for S3. `board desktop publish` run with another
-- DATA_DIR compares and refuses, instead of publishing a release whose files no server serves.
CREATE TABLE file_store (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  local_root text,
  recorded_at timestamptz NOT NULL
);
