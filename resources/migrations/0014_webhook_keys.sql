-- Webhook endpoints and deliveries are deleted (an endpoint with its
-- deliveries), and their ids (we_…, wd_…) are their keys under a
-- permutation (docs/storage.md, "Ids and cursors"). SQLite took a new key
-- from the table's highest, so deleting the newest endpoint gave its key,
-- and its id, to the next one made, in any organization (issue 51). On
-- SQLite both tables are rebuilt with AUTOINCREMENT: sqlite_sequence then
-- keeps the highest key they ever held, explicit keys included, and the
-- engine's KeyAllocator counts on from it. PostgreSQL's sequences never give
-- a value twice: nothing to do there.
{{sqlite}} CREATE TABLE webhook_endpoints_kept (
  pk INTEGER PRIMARY KEY AUTOINCREMENT,
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  description TEXT,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_until BIGINT,
  disabled_at BIGINT,
  disabled_reason TEXT,
  failing_since BIGINT,
  lease_owner TEXT,
  lease_until BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
)
;
{{sqlite}} INSERT INTO webhook_endpoints_kept (pk, org_pk, env, url, events, description,
  secret, previous_secret, previous_until, disabled_at, disabled_reason, failing_since,
  lease_owner, lease_until, created_at, updated_at)
SELECT pk, org_pk, env, url, events, description, secret, previous_secret, previous_until,
  disabled_at, disabled_reason, failing_since, lease_owner, lease_until, created_at, updated_at
FROM webhook_endpoints
;
{{sqlite}} DROP TABLE webhook_endpoints
;
{{sqlite}} ALTER TABLE webhook_endpoints_kept RENAME TO webhook_endpoints
;
{{sqlite}} CREATE INDEX webhook_endpoints_by_env ON webhook_endpoints (org_pk, env, pk)
;
{{sqlite}} CREATE TABLE webhook_deliveries_kept (
  pk INTEGER PRIMARY KEY AUTOINCREMENT,
  event_pk BIGINT NOT NULL REFERENCES webhook_events(pk),
  endpoint_pk BIGINT NOT NULL,
  org_pk BIGINT NOT NULL,
  env TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT,
  last_attempt_at BIGINT,
  last_status INTEGER,
  last_answer TEXT,
  last_error TEXT,
  created_at BIGINT NOT NULL
)
;
{{sqlite}} INSERT INTO webhook_deliveries_kept (pk, event_pk, endpoint_pk, org_pk, env, type,
  status, attempts, next_attempt_at, last_attempt_at, last_status, last_answer, last_error,
  created_at)
SELECT pk, event_pk, endpoint_pk, org_pk, env, type, status, attempts, next_attempt_at,
  last_attempt_at, last_status, last_answer, last_error, created_at
FROM webhook_deliveries
;
{{sqlite}} DROP TABLE webhook_deliveries
;
{{sqlite}} ALTER TABLE webhook_deliveries_kept RENAME TO webhook_deliveries
;
{{sqlite}} CREATE INDEX webhook_deliveries_by_env ON webhook_deliveries (org_pk, env, pk)
;
{{sqlite}} CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_pk, pk)
;
{{sqlite}} CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_pk, pk)
WHERE status = 'pending'
;
-- Keys deleted before this migration are gone from the tables, so each
-- sequence starts above the most keys the table can have handed out (one
-- per allocation, each the highest plus one): an endpoint's creation is
-- always audited, and an event went to at most 20 endpoints
-- (WebhookEndpoints::MaxPerEnvironment), events being never deleted.
{{sqlite}} DELETE FROM sqlite_sequence WHERE name IN ('webhook_endpoints', 'webhook_deliveries')
;
{{sqlite}} INSERT INTO sqlite_sequence (name, seq)
SELECT 'webhook_endpoints', MAX((SELECT COALESCE(MAX(pk), 0) FROM webhook_endpoints),
  (SELECT COUNT(*) FROM audit_log WHERE action = 'webhook_endpoint.create'))
;
{{sqlite}} INSERT INTO sqlite_sequence (name, seq)
SELECT 'webhook_deliveries', MAX((SELECT COALESCE(MAX(pk), 0) FROM webhook_deliveries),
  20 * (SELECT COALESCE(MAX(pk), 0) FROM webhook_events))
