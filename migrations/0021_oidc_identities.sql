-- Single sign-on (issue 30, docs/sso.md): who a person is at an OpenID provider. The first
-- sign-in through a provider finds the account by the provider's verified email (or makes one)
-- and records the provider's subject here; every later sign-in finds the account by
-- (issuer, subject), so a changed email at the provider still reaches the same account.
CREATE TABLE oidc_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- the provider's email at the last sign-in, for operators
  email text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX oidc_identities_user ON oidc_identities(user_id);
