-- The balance ledger (docs/ledger.md): one row per change of a balance,
-- written in the change's own transaction, so that every balance can be
-- derived again from its rows (`meterdesk-server workspace verify`). A
-- balance "holds" its remaining plus its rollovers' balances: amount is the
-- signed change of that, balance_after what it holds after the change, usage
-- the change of its usage counter. Rows are only ever added: the triggers
-- refuse UPDATE and DELETE. No foreign keys: the ledger is history, and each
-- usage call adds a row or two, so it carries only the one index it is read by.
CREATE TABLE ledger (
  pk {{pk}},
  org_pk BIGINT NOT NULL,
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  customer_pk BIGINT NOT NULL,
  feature_pk BIGINT NOT NULL,
  balance_id TEXT NOT NULL,
  at BIGINT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('usage', 'grant', 'reset', 'rollover', 'expiry', 'import',
                                     'adjustment')),
  amount TEXT NOT NULL,
  balance_after TEXT NOT NULL,
  usage TEXT NOT NULL,
  route TEXT NOT NULL,
  key_pk BIGINT,
  event_pk BIGINT
)
;
CREATE INDEX ledger_by_customer ON ledger (customer_pk, pk)
;
{{sequence ledger}}
;
-- The key an asynchronous call came with, for its ledger rows' source.
ALTER TABLE track_queue ADD COLUMN key_pk BIGINT
;
{{sqlite}} CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: rows cannot be changed'); END
;
{{sqlite}} CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: rows cannot be deleted'); END
;
{{postgres}} CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION 'the ledger is append-only: rows cannot be changed or deleted'; END $$
;
{{postgres}} CREATE TRIGGER ledger_no_change BEFORE UPDATE OR DELETE ON ledger
FOR EACH ROW EXECUTE FUNCTION ledger_append_only()
;
{{postgres}} CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON ledger
FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only()
