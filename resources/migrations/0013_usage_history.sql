-- Usage events are history, like the ledger (migration 6): nothing deletes
-- a customer, entity, feature or organization, and the writer inserts an
-- event only for the keys it resolved in the same transaction. On
-- PostgreSQL each foreign key check took a FOR KEY SHARE lock on the
-- parent row: every event of every concurrent batch locked the same
-- organization and feature rows, and dirtied its customer's page; dropping
-- them made usage.batch 27 % faster at 200,000 customers
-- (docs/performance.md, "Usage in bulk"). `workspace verify` names any event
-- whose customer, entity, feature or organization is missing. SQLite checks
-- a key by a lookup that takes no lock, and keeps its constraints (dropping
-- one means copying the table).
{{postgres}} ALTER TABLE usage_events DROP CONSTRAINT IF EXISTS usage_events_org_pk_fkey
;
{{postgres}} ALTER TABLE usage_events DROP CONSTRAINT IF EXISTS usage_events_customer_pk_fkey
;
{{postgres}} ALTER TABLE usage_events DROP CONSTRAINT IF EXISTS usage_events_entity_pk_fkey
;
{{postgres}} ALTER TABLE usage_events DROP CONSTRAINT IF EXISTS usage_events_feature_pk_fkey
