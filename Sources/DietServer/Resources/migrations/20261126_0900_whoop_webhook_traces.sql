-- WHOOP webhook replay protection shared by every instance: the trace id of each webhook
-- received, with when. A delivery whose trace id is here is a duplicate, whichever instance
-- took the first one; inserting is the check (INSERT … ON CONFLICT DO NOTHING RETURNING), so
-- of two deliveries at the same moment exactly one is the first. Not user data (WHOOP's
-- random trace ids, no user named), so no user_id and no row-level security, like
-- auth_attempts: rows are pruned once older than the window in which a delivery could still
-- pass the signature's timestamp check (WhoopWebhookVerifier.replayWindow, 10 minutes).
CREATE TABLE whoop_webhook_traces (
  trace_id text PRIMARY KEY CHECK (length(trace_id) BETWEEN 1 AND 200),
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX whoop_webhook_traces_by_age ON whoop_webhook_traces (received_at);
GRANT SELECT, INSERT, DELETE ON whoop_webhook_traces TO wdiet_app;
