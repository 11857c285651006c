-- Issue 28: a webhook belongs to the credential that made it (or last enabled it) as well as to
-- its user (created_by), so a revoked key or grant leaves no standing channel out of the
-- workspace. NULL: made before this migration, or with a bootstrap session token, which cannot
-- be revoked; such a webhook answers to its user alone. The id is of api_keys, oauth_grants or
-- web_sessions, as created_by_kind says (the Principal's `via`).
ALTER TABLE webhooks ADD COLUMN created_by_credential uuid;
ALTER TABLE webhooks ADD COLUMN created_by_kind text;
CREATE INDEX webhooks_by_credential ON webhooks (created_by_credential) WHERE created_by_credential IS NOT NULL;

-- Revoking (or deleting) a live credential disables its webhooks in the revoking transaction,
-- whichever program or person ran it, so no delivery is claimed after the revoke commits
-- (Deliveries.ts claims only enabled webhooks' deliveries; the pending ones wait, as for any
-- disabled webhook). The reason is the trigger's argument.
CREATE FUNCTION board_disable_credential_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.revoked_at IS NULL OR OLD.revoked_at IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' AND OLD.revoked_at IS NOT NULL THEN
    RETURN NULL;
  END IF;
  UPDATE webhooks SET enabled = false, disabled_reason = TG_ARGV[0],
    updated_at = CASE WHEN TG_OP = 'UPDATE' THEN NEW.revoked_at ELSE now() END
  WHERE created_by_credential = OLD.id AND enabled;
  RETURN NULL;
END $$;

CREATE TRIGGER api_keys_disable_webhooks AFTER UPDATE OF revoked_at OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION board_disable_credential_webhooks(
    'disabled because the API key that created it was revoked; a member can PATCH {"enabled": true} to take it over with their own credential');
CREATE TRIGGER oauth_grants_disable_webhooks AFTER UPDATE OF revoked_at OR DELETE ON oauth_grants
  FOR EACH ROW EXECUTE FUNCTION board_disable_credential_webhooks(
    'disabled because the OAuth grant that created it was revoked; a member can PATCH {"enabled": true} to take it over with their own credential');
-- a web session: its sign out (the table's DELETEs remove sessions that already ended)
CREATE TRIGGER web_sessions_disable_webhooks AFTER UPDATE OF revoked_at ON web_sessions
  FOR EACH ROW EXECUTE FUNCTION board_disable_credential_webhooks(
    'disabled because the web session that created it was signed out; a member can PATCH {"enabled": true} to take it over with their own credential');

-- An event stream lasts while its user is a member of its workspace (auth/CredentialWatch.ts):
-- a membership's end is announced on the revocation feed as `member:<user id>`, so every
-- instance re-checks its open streams at once rather than at its next sweep.
CREATE FUNCTION board_notify_member_left() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('board_revoked', 'member:' || OLD.user_id::text);
  RETURN NULL;
END $$;

CREATE TRIGGER workspace_members_left AFTER DELETE ON workspace_members
  FOR EACH ROW EXECUTE FUNCTION board_notify_member_left();
