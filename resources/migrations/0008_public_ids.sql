-- Ids and cursors that reveal nothing (issue 34; docs/storage.md, "Ids and
-- cursors"). workspace_secret holds the 32 random bytes ids and cursors are
-- made with, one row that the migration itself adds (Migrator), so every
-- server on a shared database makes and accepts the same ones. legacy_ids
-- notes, per id prefix, the highest key its table held now: ids issued
-- before in the counter form (`tq_34`) name only those rows.
CREATE TABLE workspace_secret (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  secret TEXT NOT NULL,
  created_at BIGINT NOT NULL
)
;
CREATE TABLE legacy_ids (
  prefix TEXT PRIMARY KEY,
  last_pk BIGINT NOT NULL
)
;
INSERT INTO legacy_ids (prefix, last_pk) SELECT 'audit_', COALESCE(MAX(pk), 0) FROM audit_log
;
INSERT INTO legacy_ids (prefix, last_pk) SELECT 'ledger_', COALESCE(MAX(pk), 0) FROM ledger
;
INSERT INTO legacy_ids (prefix, last_pk) SELECT 'key_', COALESCE(MAX(pk), 0) FROM api_keys
;
INSERT INTO legacy_ids (prefix, last_pk) SELECT 'tq_', COALESCE(MAX(pk), 0) FROM track_queue
;
INSERT INTO legacy_ids (prefix, last_pk)
SELECT 'alert_', COALESCE(MAX(pk), 0) FROM usage_alert_events
;
INSERT INTO legacy_ids (prefix, last_pk) SELECT 'event_', COALESCE(MAX(pk), 0) FROM usage_events
