-- The consent page's sign-in (issue 28) becomes a web_sessions row of its own purpose, so it can
-- be ended server-side: the web app's sign out ends the person's consent sign-ins as well, and
-- "Use another account" ends the browser's one. Before, it was a signed cookie that lived its
-- 30 minutes whatever happened. 'app' rows are the web board's sessions and the only ones that
-- authenticate API requests (auth/WebSessions.ts); 'consent' rows only let /oauth/authorize skip
-- the password for 30 minutes, never extended by use.
ALTER TABLE web_sessions ADD COLUMN purpose text NOT NULL DEFAULT 'app';
ALTER TABLE web_sessions ADD CONSTRAINT web_sessions_purpose CHECK (purpose IN ('app', 'consent'));
