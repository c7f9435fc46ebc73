-- Accounts, sessions, rotating refresh tokens, synced rows, failed sign-in attempts.
-- Every user table leads with user_id and is guarded by row-level security: the app
-- connects as wdiet_app (not the owner) and sets app.user_id per transaction.

DO $$
BEGIN
  CREATE ROLE wdiet_app LOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL; -- created by an earlier database of this cluster, or by the operator
END
$$;

-- The user of the current transaction; NULL when unset (never an error).
CREATE FUNCTION app_user_id() RETURNS uuid
  LANGUAGE sql STABLE
  AS $$ SELECT NULLIF(current_setting('app.user_id', true), '')::uuid $$;

CREATE TABLE users (
  id uuid PRIMARY KEY,
  email text UNIQUE CHECK (email = lower(email)),
  password_hash text,
  apple_subject text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (email IS NOT NULL OR apple_subject IS NOT NULL)
);

CREATE TABLE sessions (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  device_name text NOT NULL CHECK (length(device_name) BETWEEN 1 AND 100),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  PRIMARY KEY (user_id, id)
);

-- Only SHA-256 hashes of refresh tokens are stored. A token is used once; presenting a used
-- token again revokes its session (the family).
CREATE TABLE refresh_tokens (
  user_id uuid NOT NULL,
  token_hash bytea NOT NULL,
  session_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, token_hash),
  FOREIGN KEY (user_id, session_id) REFERENCES sessions (user_id, id) ON DELETE CASCADE
);

-- The newest state of every synced row. seq orders a user's commits (pull cursor).
CREATE SEQUENCE sync_seq;
CREATE TABLE sync_rows (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  table_name text NOT NULL,
  id uuid NOT NULL,
  hlc text COLLATE "C" NOT NULL,
  deleted boolean NOT NULL,
  row jsonb NOT NULL CHECK (jsonb_typeof(row) = 'object'),
  seq bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, table_name, id)
);
CREATE INDEX sync_rows_by_seq ON sync_rows (user_id, seq);

-- Failed sign-ins, keyed by a SHA-256 of "account:<email>" or "address:<ip>" (no emails or
-- addresses stored in clear). Not user data: rows expire after the rate-limit window.
CREATE TABLE auth_failures (
  key_hash bytea NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_failures_by_key ON auth_failures (key_hash, at);

ALTER TABLE users ENABLE ROW LEVEL SECURITY;
ALTER TABLE sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE refresh_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE sync_rows ENABLE ROW LEVEL SECURITY;
ALTER TABLE users FORCE ROW LEVEL SECURITY;
ALTER TABLE sessions FORCE ROW LEVEL SECURITY;
ALTER TABLE refresh_tokens FORCE ROW LEVEL SECURITY;
ALTER TABLE sync_rows FORCE ROW LEVEL SECURITY;

CREATE POLICY own_user ON users USING (id = app_user_id()) WITH CHECK (id = app_user_id());
CREATE POLICY own_sessions ON sessions USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
CREATE POLICY own_refresh_tokens ON refresh_tokens USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
CREATE POLICY own_sync_rows ON sync_rows USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());

-- Sign-in must find an account before it knows the user: these two lookups are the only
-- way around row-level security, and they return just the id and the password hash.
CREATE FUNCTION auth_user_by_email(p_email text) RETURNS TABLE (id uuid, password_hash text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT u.id, u.password_hash FROM users u WHERE u.email = lower(p_email) $$;

CREATE FUNCTION auth_user_by_apple(p_subject text) RETURNS uuid
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT u.id FROM users u WHERE u.apple_subject = p_subject $$;

-- Whether an email is taken, for sign-up and Apple sign-in (which may carry one).
CREATE FUNCTION auth_email_taken(p_email text) RETURNS boolean
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT EXISTS (SELECT 1 FROM users u WHERE u.email = lower(p_email)) $$;

REVOKE ALL ON FUNCTION auth_user_by_email(text), auth_user_by_apple(text), auth_email_taken(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_user_by_email(text), auth_user_by_apple(text), auth_email_taken(text), app_user_id() TO wdiet_app;
GRANT USAGE ON SCHEMA public TO wdiet_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON users, sessions, refresh_tokens, sync_rows TO wdiet_app;
GRANT SELECT, INSERT, DELETE ON auth_failures TO wdiet_app;
GRANT USAGE ON SEQUENCE sync_seq TO wdiet_app;
