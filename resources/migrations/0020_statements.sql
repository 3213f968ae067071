-- Statements, closed exactly once per customer and billing period (issue 54;
-- docs/billing.md, "Statements").
--
-- charge_lines: what a usage-based row's usage came to when the clock reset
-- it, one line per reset, written in the reset's transaction (clock/
-- ResetCharges). `line` is the line as the API shows it (JSON). A statement
-- of [period_start, period_end) takes its customer's lines with
-- period_start < at <= period_end: a reset at the period's end closes usage
-- of that period. The key makes a reset's line unique.
CREATE TABLE charge_lines (
  pk {{pk}},
  org_pk BIGINT NOT NULL,
  env TEXT NOT NULL,
  customer_pk BIGINT NOT NULL,
  at BIGINT NOT NULL,
  balance_id TEXT NOT NULL,
  line TEXT NOT NULL,
  UNIQUE (customer_pk, at, balance_id)
)
;
{{sequence charge_lines}}
;
-- One row per customer and closed period, never updated. `lines` is the
-- JSON array the API shows (its total is their sum); the sums by kind are in
-- minor units of the currency (cents for USD), for revenue by customer.
CREATE TABLE statements (
  pk {{pk}},
  org_pk BIGINT NOT NULL,
  env TEXT NOT NULL,
  customer_pk BIGINT NOT NULL,
  period_start BIGINT NOT NULL,
  period_end BIGINT NOT NULL,
  currency TEXT NOT NULL,
  lines TEXT NOT NULL,
  fixed_minor BIGINT NOT NULL,
  usage_minor BIGINT NOT NULL,
  closed_at BIGINT NOT NULL,
  UNIQUE (customer_pk, period_start)
)
;
{{sequence statements}}
;
CREATE INDEX statements_by_period ON statements (org_pk, env, period_start, pk)
;
-- revenue.summary flat at any size: what the closed statements came to,
-- by the UTC month their period starts in, product ('' for none), feature
-- ('' for a fixed price) and kind, in minor units; kept in the closing
-- transaction and checked by `workspace verify`.
CREATE TABLE revenue_months (
  org_pk BIGINT NOT NULL,
  env TEXT NOT NULL,
  month BIGINT NOT NULL,
  product_id TEXT NOT NULL,
  feature_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  amount_minor BIGINT NOT NULL,
  PRIMARY KEY (org_pk, env, month, product_id, feature_id, kind)
)
;
-- Each customer's open period: [statement_from, statement_due_at). Null
-- until the clock's sweep opens the first one at the period that holds its
-- now; the sweep closes those due, oldest first.
ALTER TABLE customers ADD COLUMN statement_from BIGINT
;
ALTER TABLE customers ADD COLUMN statement_due_at BIGINT
;
CREATE INDEX customers_by_statement_due ON customers (statement_due_at)
