-- Limits that hold under concurrency and per user: sign-in and sign-up attempts counted
-- under advisory locks, a per-user sync cursor, stored bytes and a push rate per user.

-- Attempts replace failures: an attempt is recorded before its password is checked, so
-- parallel attempts are counted. Keys are SHA-256 hashes of "pair:<email>\n<address>",
-- "address:<ip>", "account:<email>" or "signup:<ip>"; `account` (a hash of the email) lets an
-- account's deletion remove its attempts. Not user data: rows expire after their window.
DROP TABLE auth_failures;
CREATE TABLE auth_attempts (
  key_hash bytea NOT NULL,
  attempt uuid NOT NULL,
  account bytea,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_attempts_by_key ON auth_attempts (key_hash, at);
CREATE INDEX auth_attempts_by_attempt ON auth_attempts (attempt);
CREATE INDEX auth_attempts_by_account ON auth_attempts (account) WHERE account IS NOT NULL;
CREATE INDEX auth_attempts_by_age ON auth_attempts (at);
GRANT SELECT, INSERT, DELETE ON auth_attempts TO wdiet_app;

-- Per user: the last sequence number given to a change (the pull cursor counts only the
-- user's own changes, so it says nothing about how much others write), the bytes of stored
-- rows (the quota), and the bytes pushed in the current minute (the push rate). Updated in
-- the push transaction under the user's advisory lock.
CREATE TABLE user_usage (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  last_seq bigint NOT NULL DEFAULT 0,
  stored_bytes bigint NOT NULL DEFAULT 0,
  window_start timestamptz NOT NULL DEFAULT now(),
  window_bytes bigint NOT NULL DEFAULT 0
);

-- Each stored row's size, so a push adjusts the user's total without reading it all again.
-- Existing rows and users are counted once here; each user's sequence continues from their
-- highest one, so the cursors devices hold stay valid. Row-level security is lifted for the
-- owner while counting (a superuser passes it anyway).
ALTER TABLE sync_rows NO FORCE ROW LEVEL SECURITY;
ALTER TABLE sync_rows ADD COLUMN row_bytes integer NOT NULL DEFAULT 0;
UPDATE sync_rows SET row_bytes = octet_length(row::text);
INSERT INTO user_usage (user_id, last_seq, stored_bytes)
  SELECT user_id, max(seq), sum(row_bytes) FROM sync_rows GROUP BY user_id;
ALTER TABLE sync_rows FORCE ROW LEVEL SECURITY;

ALTER TABLE user_usage ENABLE ROW LEVEL SECURITY;
ALTER TABLE user_usage FORCE ROW LEVEL SECURITY;
CREATE POLICY own_usage ON user_usage USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON user_usage TO wdiet_app;
