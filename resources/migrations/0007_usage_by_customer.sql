-- One per-customer index on the usage path, not two. Each usage call writes
-- its event and its ledger row; an index keyed by customer dirties a page of
-- its own per customer a batch touches, which measured as the whole cost of
-- the ledger on balances.track_tokens (docs/performance.md, "The ledger").
-- The ledger's index serves the per-customer reads; usage_events.list by
-- customer walks the time index instead, which now carries customer_pk so
-- that walk reads no table rows.
DROP INDEX usage_events_by_customer
;
DROP INDEX usage_events_by_time
;
CREATE INDEX usage_events_by_time ON usage_events (org_pk, env, timestamp, pk, customer_pk)
