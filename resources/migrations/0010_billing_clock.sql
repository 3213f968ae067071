-- The billing clock (issue 37; docs/api.md, "The billing clock"): balances
-- reset, roll over and expire when they fall due, and subscriptions move
-- to the period that holds now.
--
-- reset_anchor: where a balance's calendar counts from, so that a month
-- keeps its day (the 31st after a February). rollover: what a reset carries
-- over, the product item's rule as JSON, copied when the balance is made.
-- expired_at: when the clock expired a standalone balance (its expiry entry
-- gave up everything it held). due_at: the first moment anything falls due
-- for the balance, null for never; only the clock and the writes that make
-- a balance set it, never a track call, so its index costs the usage path
-- nothing.
ALTER TABLE balances ADD COLUMN reset_anchor BIGINT
;
ALTER TABLE balances ADD COLUMN rollover TEXT
;
ALTER TABLE balances ADD COLUMN expired_at BIGINT
;
ALTER TABLE balances ADD COLUMN due_at BIGINT
;
UPDATE balances SET reset_anchor = resets_at
;
-- Possibly early (a plan's end is not looked at): the clock then finds
-- nothing to do and sets the right moment.
UPDATE balances SET due_at = (
  SELECT MIN(t) FROM (
    SELECT balances.resets_at AS t
    WHERE balances.reset_interval IS NOT NULL AND balances.reset_interval <> 'one_off'
    UNION ALL SELECT balances.expires_at WHERE balances.customer_product_pk IS NULL
    UNION ALL SELECT r.expires_at FROM rollovers r WHERE r.balance_pk = balances.pk
  ) due)
;
-- The sweep walks every organization's due balances in time order; a read
-- looks for its organization's (tst_queryplans).
CREATE INDEX balances_due ON balances (due_at) WHERE due_at IS NOT NULL
;
CREATE INDEX balances_due_by_scope ON balances (org_pk, env, due_at) WHERE due_at IS NOT NULL
;
-- A subscription's periods count from its billing cycle anchor (an
-- import's, else its start), as a balance's resets do from reset_anchor.
ALTER TABLE customer_products ADD COLUMN period_anchor BIGINT
;
UPDATE customer_products SET period_anchor = COALESCE(current_period_start, started_at)
;
-- Subscriptions whose period ended, and plans whose end came: what the
-- sweep looks for besides balances.
CREATE INDEX customer_products_period_due ON customer_products (current_period_end)
WHERE status IN ('active', 'trialing', 'past_due')
;
CREATE INDEX customer_products_end_due ON customer_products (expires_at)
WHERE status <> 'expired'
;
-- A sandbox's clock: how far its now is ahead of the real one. Every server
-- on the database reads it, so all agree. Production has none.
CREATE TABLE clock_offsets (
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env = 'test'),
  offset_ms BIGINT NOT NULL CHECK (offset_ms >= 0),
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (org_pk, env)
)
