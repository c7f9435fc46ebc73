-- WHOOP on the server: a user's connection (tokens sealed with AES-GCM under WDIET_TOKEN_KEY,
-- never in clear) and the single-use states of connection attempts (SHA-256 hashes only).
-- Both lead with user_id, are guarded by row-level security and go with the account.

CREATE TABLE whoop_connections (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  -- WHOOP's id of the member: webhooks name the user by it.
  whoop_user_id bigint NOT NULL UNIQUE,
  -- AES-GCM combined box (nonce, ciphertext, tag) of the token JSON; the user id is its
  -- authenticated data, so a box moved to another user does not open.
  tokens bytea NOT NULL,
  -- When the access token expires, in clear so the refresh job finds the due users.
  expires_at timestamptz NOT NULL,
  connected_at timestamptz NOT NULL DEFAULT now(),
  refreshed_at timestamptz,
  last_fetch_at timestamptz
);
CREATE INDEX whoop_connections_by_expiry ON whoop_connections (expires_at);

-- A used state is kept (used_at) until it expires, so a second use is told apart from a forgery.
CREATE TABLE whoop_states (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  state_hash bytea NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, state_hash)
);

ALTER TABLE whoop_connections ENABLE ROW LEVEL SECURITY;
ALTER TABLE whoop_states ENABLE ROW LEVEL SECURITY;
ALTER TABLE whoop_connections FORCE ROW LEVEL SECURITY;
ALTER TABLE whoop_states FORCE ROW LEVEL SECURITY;
CREATE POLICY own_whoop_connection ON whoop_connections USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
CREATE POLICY own_whoop_states ON whoop_states USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());

-- The three places that must find a user before one is known; each returns ids only.
-- The callback: whose connection attempt a state hash belongs to.
CREATE FUNCTION whoop_user_by_state(p_state_hash bytea) RETURNS uuid
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT s.user_id FROM whoop_states s WHERE s.state_hash = p_state_hash $$;

-- The webhook: which user a WHOOP member id is connected to.
CREATE FUNCTION whoop_user_by_member(p_whoop_user_id bigint) RETURNS uuid
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT c.user_id FROM whoop_connections c WHERE c.whoop_user_id = p_whoop_user_id $$;

-- The refresh job: the users whose access token expires before p_before.
CREATE FUNCTION whoop_users_due(p_before timestamptz) RETURNS SETOF uuid
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT c.user_id FROM whoop_connections c WHERE c.expires_at < p_before ORDER BY c.expires_at $$;

REVOKE ALL ON FUNCTION whoop_user_by_state(bytea), whoop_user_by_member(bigint), whoop_users_due(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION whoop_user_by_state(bytea), whoop_user_by_member(bigint), whoop_users_due(timestamptz) TO wdiet_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON whoop_connections, whoop_states TO wdiet_app;
