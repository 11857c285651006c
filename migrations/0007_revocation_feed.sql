-- Credentials are cached in each server's memory (auth/CredentialCache.ts); a revoke must reach
-- every instance within a second. Each credential table announces a revoke or a delete on the
-- board_revoked channel with the credential's id, delivered when the revoking transaction
-- commits, whichever program or person ran it.
CREATE FUNCTION board_notify_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('board_revoked', OLD.id::text);
  RETURN NULL;
END $$;

CREATE TRIGGER api_keys_revoked AFTER UPDATE OF revoked_at OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION board_notify_revoked();
CREATE TRIGGER oauth_grants_revoked AFTER UPDATE OF revoked_at OR DELETE ON oauth_grants
  FOR EACH ROW EXECUTE FUNCTION board_notify_revoked();
CREATE TRIGGER intake_tokens_revoked AFTER UPDATE OF revoked_at OR DELETE ON intake_tokens
  FOR EACH ROW EXECUTE FUNCTION board_notify_revoked();
