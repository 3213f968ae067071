-- The audit log (docs/api.md, "audit_log.list"): one row per write through
-- the API or the console, written in the write's own transaction. Rows are
-- only ever added: the triggers refuse UPDATE and DELETE, so not even the
-- engine's own code can change history. before and after are the resource's
-- wire JSON (never a secret); actor_key_id is "key_<pk>", never key material.
CREATE TABLE audit_log (
  pk {{pk}},
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  at BIGINT NOT NULL,
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('key', 'console')),
  actor_key_id TEXT,
  actor_name TEXT NOT NULL,
  action TEXT NOT NULL,
  resource_type TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  before TEXT,
  after TEXT
)
;
CREATE INDEX audit_log_by_env ON audit_log (org_pk, env, pk)
;
CREATE INDEX audit_log_by_resource ON audit_log (org_pk, env, resource_type, resource_id, pk)
;
{{sequence audit_log}}
;
{{sqlite}} CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: rows cannot be changed'); END
;
{{sqlite}} CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: rows cannot be deleted'); END
;
{{postgres}} CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION 'the audit log is append-only: rows cannot be changed or deleted'; END $$
;
{{postgres}} CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()
;
{{postgres}} CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()
