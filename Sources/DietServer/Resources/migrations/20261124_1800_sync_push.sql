-- A push is one call to PostgreSQL between BEGIN and COMMIT: three round trips instead of
-- four (BEGIN, the user and the lock, the push, COMMIT). With 50 devices pushing at once the
-- round trips, not the push's work, set the latency (each is a message through PostgresNIO,
-- the kernel and a backend on both sides). COMMIT stays explicit: a call run as a transaction
-- of its own returns its rows before its commit is confirmed.

-- The user's write lock: the transaction-scoped advisory lock that every write of a user's
-- synced rows takes first (pushes, the server's WHOOP rows), so the user's sequence numbers
-- are given in commit order and a pull never skips a late commit. The key hashes the id's
-- upper-case text, the text earlier releases hashed, so instances of two releases exclude
-- each other during a rolling deploy.
CREATE FUNCTION user_write_lock(p_user uuid) RETURNS void
  LANGUAGE sql VOLATILE
  AS $$ SELECT pg_advisory_xact_lock(hashtextextended(upper(p_user::text), 0)) $$;

-- The whole push (the `PushStatement` comment in the server says how), after setting the
-- transaction's user and taking the user's lock. Each statement of a VOLATILE PL/pgSQL
-- function takes a fresh snapshot, so the push's reads see every push committed before the
-- lock was granted. The plan is kept per connection and generic: planning the push took
-- longer than running it (1.7 ms for three rows). A row per applied change, or one row with
-- no change; `ok` false stores nothing. Called by the app's role, under row-level security.
CREATE FUNCTION sync_push(
  p_user uuid, p_session uuid, p_tables text[], p_ids uuid[], p_hlcs text[], p_deleted bool[], p_rows text[],
  p_stored_quota int8, p_rate_quota int8, p_window float8
) RETURNS TABLE (
  live bool, ok bool, last_seq int8, stored_bytes int8, age float8, window_bytes int8,
  winners int8, added int8, growth int8, table_name text, id uuid
)
  LANGUAGE plpgsql VOLATILE
  SET plan_cache_mode = force_generic_plan
  AS $$
#variable_conflict use_column
BEGIN
  PERFORM set_config('app.user_id', p_user::text, true);
  PERFORM user_write_lock(p_user);
  RETURN QUERY
  WITH live AS (
    SELECT p_session IS NULL OR EXISTS (SELECT 1 FROM sessions WHERE id = p_session AND revoked_at IS NULL) AS live
  ),
  w AS (
    SELECT c.table_name, c.id, c.hlc, c.deleted, c.row, c.ordinal, octet_length(c.row)::int8 AS bytes,
           coalesce(s.row_bytes, 0)::int8 AS replaced, row_number() OVER (ORDER BY c.ordinal) AS n
    FROM unnest(p_tables, p_ids, p_hlcs, p_deleted, p_rows) WITH ORDINALITY AS c (table_name, id, hlc, deleted, row, ordinal)
    LEFT JOIN LATERAL (
      SELECT s.hlc, s.row_bytes FROM sync_rows s WHERE s.user_id = p_user AND s.table_name = c.table_name AND s.id = c.id LIMIT 1
    ) AS s ON true
    WHERE s.hlc IS NULL OR s.hlc < c.hlc COLLATE "C"
  ),
  u AS (
    SELECT coalesce(x.last_seq, 0) AS last_seq, coalesce(x.stored_bytes, 0) AS stored_bytes,
           coalesce(EXTRACT(EPOCH FROM now() - x.window_start)::float8, p_window) AS age,
           coalesce(x.window_bytes, 0) AS window_bytes, x.window_start,
           (SELECT count(*) FROM w) AS winners,
           (SELECT coalesce(sum(w.bytes), 0)::int8 FROM w) AS added,
           (SELECT coalesce(sum(w.bytes - w.replaced), 0)::int8 FROM w) AS growth
    FROM (VALUES (1)) AS one (n) LEFT JOIN user_usage x ON x.user_id = p_user
  ),
  v AS (
    SELECT u.*, live.live,
           live.live AND u.winners > 0
             AND NOT (u.age < p_window AND u.window_bytes > 0 AND u.window_bytes + u.added > p_rate_quota)
             AND NOT (u.growth > 0 AND u.stored_bytes + u.growth > p_stored_quota) AS ok
    FROM u, live
  ),
  ins AS (
    INSERT INTO sync_rows AS s (user_id, table_name, id, hlc, deleted, row, row_bytes, seq)
    SELECT p_user, w.table_name, w.id, w.hlc, w.deleted, w.row::jsonb, w.bytes, v.last_seq + w.n
    FROM w, v WHERE v.ok
    ORDER BY w.ordinal
    ON CONFLICT (user_id, table_name, id) DO UPDATE
      SET hlc = excluded.hlc, deleted = excluded.deleted, row = excluded.row, row_bytes = excluded.row_bytes,
          seq = excluded.seq, updated_at = now()
      WHERE s.hlc < excluded.hlc
    RETURNING s.table_name, s.id
  ),
  save AS (
    INSERT INTO user_usage AS x (user_id, last_seq, stored_bytes, window_start, window_bytes)
    SELECT p_user, v.last_seq + v.winners, GREATEST(0, v.stored_bytes + v.growth),
           CASE WHEN v.age >= p_window THEN now() ELSE v.window_start END,
           CASE WHEN v.age >= p_window THEN v.added ELSE v.window_bytes + v.added END
    FROM v WHERE v.ok
    ON CONFLICT (user_id) DO UPDATE
      SET last_seq = excluded.last_seq, stored_bytes = excluded.stored_bytes,
          window_start = excluded.window_start, window_bytes = excluded.window_bytes
  )
  SELECT v.live, v.ok, v.last_seq, v.stored_bytes, v.age, v.window_bytes, v.winners, v.added, v.growth,
         ins.table_name, ins.id
  FROM v LEFT JOIN ins ON true;
END
$$;

REVOKE ALL ON FUNCTION user_write_lock(uuid), sync_push(uuid, uuid, text[], uuid[], text[], bool[], text[], int8, int8, float8) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION user_write_lock(uuid), sync_push(uuid, uuid, text[], uuid[], text[], bool[], text[], int8, int8, float8)
  TO wdiet_app;
