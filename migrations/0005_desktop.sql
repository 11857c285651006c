-- Desktop releases: one row per published version of a platform, written only after every
-- file (and the update feed) is in storage, so a failed upload leaves the previous release as
-- the latest. The latest release of a platform is the one published last (publish_order).
CREATE SEQUENCE desktop_release_order;

CREATE TABLE desktop_releases (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  platform text NOT NULL,
  version text NOT NULL,
  notes text NOT NULL,
  -- the main artifact (the download endpoint's file): its name, digests and size
  artifact text NOT NULL,
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  sha512 text NOT NULL,
  size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
  -- every file of the release: [{name, sha256, sha512, size}]
  files jsonb NOT NULL,
  -- darwin releases carry their own latest-mac.yml at <platform>/<version>/latest-mac.yml
  has_feed boolean NOT NULL,
  publish_order bigint NOT NULL DEFAULT nextval('desktop_release_order'),
  published_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (platform, version)
);
CREATE INDEX desktop_releases_latest ON desktop_releases(platform, publish_order DESC);
