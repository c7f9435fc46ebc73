-- A push request is one round trip to PostgreSQL: a procedure that runs the push, COMMITs
-- and only then returns its verdict. A plain statement run as a transaction of its own is
-- not enough: its rows wait in the backend's output buffer while the implicit commit waits
-- for the synchronous standby, and a backend killed then (an immediate shutdown) flushes them
-- to the client, which takes them for an answer. So the push ran between BEGIN and COMMIT:
-- three round trips. A procedure's result row is made after its body's COMMIT, which waits
-- for the standby like any other, so the answer still means the rows are safe.

-- The push's verdict in one row: `sync_push`'s usage line and the applied rows' keys as two
-- arrays of the same order (empty when none applied). For writers inside a transaction of
-- their own (the server's WHOOP rows), which commit it themselves.
CREATE FUNCTION sync_push_verdict(
  p_user uuid, p_session uuid, p_tables text[], p_ids uuid[], p_hlcs text[], p_deleted bool[], p_rows text[],
  p_stored_quota int8, p_rate_quota int8, p_window float8
) RETURNS TABLE (
  live bool, ok bool, last_seq int8, stored_bytes int8, age float8, window_bytes int8,
  winners int8, added int8, growth int8, applied_tables text[], applied_ids uuid[]
)
  LANGUAGE plpgsql VOLATILE
  AS $$
BEGIN
  -- PL/pgSQL keeps this plan per connection; a LANGUAGE sql function is planned on every call.
  RETURN QUERY
  SELECT bool_and(r.live), bool_and(r.ok), max(r.last_seq), max(r.stored_bytes), max(r.age), max(r.window_bytes),
         max(r.winners), max(r.added), max(r.growth),
         coalesce(array_agg(r.table_name ORDER BY r.table_name, r.id) FILTER (WHERE r.id IS NOT NULL), '{}'),
         coalesce(array_agg(r.id ORDER BY r.table_name, r.id) FILTER (WHERE r.id IS NOT NULL), '{}')
  FROM sync_push(p_user, p_session, p_tables, p_ids, p_hlcs, p_deleted, p_rows, p_stored_quota, p_rate_quota, p_window) AS r;
END
$$;

-- The push request's call: the verdict, committed. It must be called outside a transaction
-- block (PostgreSQL refuses its COMMIT inside one). A push that fails rolls back whole; the
-- write lock `sync_push` takes is released by the COMMIT.
CREATE PROCEDURE sync_push_committed(
  p_user uuid, p_session uuid, p_tables text[], p_ids uuid[], p_hlcs text[], p_deleted bool[], p_rows text[],
  p_stored_quota int8, p_rate_quota int8, p_window float8,
  OUT o_live bool, OUT o_ok bool, OUT o_last_seq int8, OUT o_stored_bytes int8, OUT o_age float8, OUT o_window_bytes int8,
  OUT o_winners int8, OUT o_added int8, OUT o_growth int8, OUT o_applied_tables text[], OUT o_applied_ids uuid[]
)
  LANGUAGE plpgsql
  AS $$
BEGIN
  SELECT * INTO o_live, o_ok, o_last_seq, o_stored_bytes, o_age, o_window_bytes, o_winners, o_added, o_growth,
                o_applied_tables, o_applied_ids
  FROM sync_push_verdict(p_user, p_session, p_tables, p_ids, p_hlcs, p_deleted, p_rows, p_stored_quota, p_rate_quota, p_window);
  COMMIT;
END
$$;

REVOKE ALL ON FUNCTION sync_push_verdict(uuid, uuid, text[], uuid[], text[], bool[], text[], int8, int8, float8) FROM PUBLIC;
REVOKE ALL ON PROCEDURE sync_push_committed(uuid, uuid, text[], uuid[], text[], bool[], text[], int8, int8, float8) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sync_push_verdict(uuid, uuid, text[], uuid[], text[], bool[], text[], int8, int8, float8) TO wdiet_app;
GRANT EXECUTE ON PROCEDURE sync_push_committed(uuid, uuid, text[], uuid[], text[], bool[], text[], int8, int8, float8) TO wdiet_app;
