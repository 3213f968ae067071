-- Prepaid purchases, AI credits and a currency per organization on statements
-- (issue 54; docs/billing.md, "Prepaid purchases and AI credits", "Money is exact").
--
-- charge_lines.advance: 1 for a purchase, bought for the interval it
-- starts, so a statement of [period_start, period_end) takes it when
-- period_start <= at < period_end; 0 for usage billed when its interval
-- closes (period_start < at <= period_end). A prepaid row's reset can write
-- both at one moment (its usage past the grant, then its renewal), hence
-- the key; its order is the order statements list lines in.
{{sqlite}} CREATE TABLE charge_lines_kept (
  pk INTEGER PRIMARY KEY,
  org_pk BIGINT NOT NULL,
  env TEXT NOT NULL,
  customer_pk BIGINT NOT NULL,
  at BIGINT NOT NULL,
  balance_id TEXT NOT NULL,
  line TEXT NOT NULL,
  advance INTEGER NOT NULL DEFAULT 0,
  UNIQUE (customer_pk, at, advance, balance_id)
)
;
{{sqlite}} INSERT INTO charge_lines_kept (pk, org_pk, env, customer_pk, at, balance_id, line)
  SELECT pk, org_pk, env, customer_pk, at, balance_id, line FROM charge_lines
;
{{sqlite}} DROP TABLE charge_lines
;
{{sqlite}} ALTER TABLE charge_lines_kept RENAME TO charge_lines
;
{{postgres}} ALTER TABLE charge_lines ADD COLUMN advance INTEGER NOT NULL DEFAULT 0
;
{{postgres}} ALTER TABLE charge_lines DROP CONSTRAINT charge_lines_customer_pk_at_balance_id_key
;
{{postgres}} ALTER TABLE charge_lines ADD CONSTRAINT charge_lines_once
  UNIQUE (customer_pk, at, advance, balance_id)
;
-- A statement's sums of its prepaid and credit lines, as fixed_minor and
-- usage_minor are of the others (revenue by customer).
ALTER TABLE statements ADD COLUMN prepaid_minor BIGINT NOT NULL DEFAULT 0
;
ALTER TABLE statements ADD COLUMN credits_minor BIGINT NOT NULL DEFAULT 0
;
-- One currency per organization (ISO 4217, lower case; charges/Money),
-- named by its workspace file and fixed once loaded: its statements and
-- revenue sums are in it.
ALTER TABLE organizations ADD COLUMN currency TEXT NOT NULL DEFAULT 'usd'
;
-- revenue.summary by customer reads a range's statements from this index
-- alone (statements/RevenueTotals): no read of the rows or the customers.
CREATE INDEX statements_by_period_sums ON statements (org_pk, env, period_start, customer_pk,
  fixed_minor, usage_minor, prepaid_minor, credits_minor)
