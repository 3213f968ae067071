-- balances.totals and balances.pages flat at any size (issue 53;
-- docs/performance.md, "Totals from kept sums"). Triggers keep, in the
-- transaction of every write to balances:
--
-- balances.expired: the row's state as the clock has applied it (1 when a
-- standalone row's expiry came, expired_at, or its plan ended,
-- customer_products.status 'expired'), so sums can be kept per state.
--
-- balance_sums: per feature, plan key (0 for standalone rows), state and
-- stripe (customer key modulo 8, so writers of different customers on
-- PostgreSQL mostly meet on different rows), the rows and their grants,
-- remaining and usage, exactly (md_decimal_* on SQLite, numeric on
-- PostgreSQL).
--
-- balance_customers: how many customers hold a row there, for each of the
-- eight ways to leave feature, plan and state open (-1: any), since distinct
-- customers do not add up across groups. A row counts when the customer's
-- first row of that kind arrives and stops when the last one leaves.
--
-- Filled from the balances by Migrator's step after this script;
-- `workspace verify` compares every row with the balances.
ALTER TABLE balances ADD COLUMN expired INTEGER NOT NULL DEFAULT 0
;
UPDATE balances SET expired = 1 WHERE CASE WHEN customer_product_pk IS NULL
  THEN expired_at IS NOT NULL
  ELSE (SELECT cp.status = 'expired' FROM customer_products cp
        WHERE cp.pk = balances.customer_product_pk) END
;
-- A customer's rows of one state and feature: what the triggers look at to
-- tell a customer's first or last row of a kind.
CREATE INDEX balances_by_customer_state ON balances (customer_pk, expired, feature_pk)
;
-- balances.pages of a status, by feature or not, walks only the keys
-- (BalanceLister::pages; tst_queryplans).
CREATE INDEX balances_by_state ON balances (org_pk, env, expired, customer_pk, pk)
;
CREATE INDEX balances_by_feature_state ON balances (org_pk, env, feature_pk, expired, customer_pk,
  pk)
;
{{sqlite}} CREATE TABLE balance_sums (
  org_pk BIGINT NOT NULL,
  env TEXT NOT NULL,
  feature_pk BIGINT NOT NULL,
  plan_pk BIGINT NOT NULL,
  expired INTEGER NOT NULL,
  stripe INTEGER NOT NULL,
  balances BIGINT NOT NULL,
  included TEXT NOT NULL,
  prepaid TEXT NOT NULL,
  remaining TEXT NOT NULL,
  usage TEXT NOT NULL,
  PRIMARY KEY (org_pk, env, feature_pk, plan_pk, expired, stripe)
)
;
{{postgres}} CREATE TABLE balance_sums (
  org_pk BIGINT NOT NULL,
  env TEXT NOT NULL,
  feature_pk BIGINT NOT NULL,
  plan_pk BIGINT NOT NULL,
  expired INTEGER NOT NULL,
  stripe INTEGER NOT NULL,
  balances BIGINT NOT NULL,
  included NUMERIC NOT NULL,
  prepaid NUMERIC NOT NULL,
  remaining NUMERIC NOT NULL,
  usage NUMERIC NOT NULL,
  PRIMARY KEY (org_pk, env, feature_pk, plan_pk, expired, stripe)
)
;
CREATE TABLE balance_customers (
  org_pk BIGINT NOT NULL,
  env TEXT NOT NULL,
  feature_pk BIGINT NOT NULL,
  plan_pk BIGINT NOT NULL,
  expired INTEGER NOT NULL,
  stripe INTEGER NOT NULL,
  customers BIGINT NOT NULL,
  PRIMARY KEY (org_pk, env, feature_pk, plan_pk, expired, stripe)
)
;
-- The eight ways: 1 keeps the row's own feature, plan or state, 0 leaves it open.
CREATE TABLE balance_levels (
  by_feature INTEGER NOT NULL,
  by_plan INTEGER NOT NULL,
  by_state INTEGER NOT NULL,
  PRIMARY KEY (by_feature, by_plan, by_state)
)
;
INSERT INTO balance_levels VALUES (0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0),
  (1, 0, 1), (1, 1, 0), (1, 1, 1)
;
-- SQLite: row triggers, each a single-row change, so "the customer's first
-- (last) row of a kind" is "no other row of that kind" after it.
{{sqlite}} CREATE TRIGGER balances_expired_standalone AFTER UPDATE OF expired_at ON balances
WHEN new.customer_product_pk IS NULL AND new.expired <> (new.expired_at IS NOT NULL)
BEGIN
  UPDATE balances SET expired = (new.expired_at IS NOT NULL) WHERE pk = new.pk;
END
;
{{sqlite}} CREATE TRIGGER balances_expired_inserted AFTER INSERT ON balances
WHEN new.expired <> CASE WHEN new.customer_product_pk IS NULL THEN new.expired_at IS NOT NULL
  ELSE COALESCE((SELECT status = 'expired' FROM customer_products
    WHERE pk = new.customer_product_pk), 0) END
BEGIN
  UPDATE balances SET expired = 1 - new.expired WHERE pk = new.pk;
END
;
{{sqlite}} CREATE TRIGGER customer_products_expired AFTER UPDATE OF status ON customer_products
WHEN (old.status = 'expired') <> (new.status = 'expired')
BEGIN
  UPDATE balances SET expired = (new.status = 'expired') WHERE customer_product_pk = new.pk;
END
;
{{sqlite}} CREATE TRIGGER balance_sums_insert AFTER INSERT ON balances
BEGIN
  INSERT INTO balance_sums (org_pk, env, feature_pk, plan_pk, expired, stripe, balances, included,
    prepaid, remaining, usage)
  VALUES (new.org_pk, new.env, new.feature_pk,
    COALESCE((SELECT plan_pk FROM customer_products WHERE pk = new.customer_product_pk), 0),
    new.expired, new.customer_pk % 8, 1, new.included_grant, new.prepaid_grant, new.remaining,
    new.usage)
  ON CONFLICT (org_pk, env, feature_pk, plan_pk, expired, stripe) DO UPDATE SET
    balances = balances + 1, included = md_decimal_add(included, excluded.included),
    prepaid = md_decimal_add(prepaid, excluded.prepaid),
    remaining = md_decimal_add(remaining, excluded.remaining),
    usage = md_decimal_add(usage, excluded.usage);
  INSERT INTO balance_customers (org_pk, env, feature_pk, plan_pk, expired, stripe, customers)
  SELECT new.org_pk, new.env, k.f, k.p, k.e, new.customer_pk % 8, 1 FROM (
    SELECT CASE WHEN l.by_feature = 1 THEN new.feature_pk ELSE -1 END AS f,
      CASE WHEN l.by_plan = 1 THEN COALESCE((SELECT plan_pk FROM customer_products
        WHERE pk = new.customer_product_pk), 0) ELSE -1 END AS p,
      CASE WHEN l.by_state = 1 THEN new.expired ELSE -1 END AS e
    FROM balance_levels l) k
  WHERE NOT EXISTS (SELECT 1 FROM balances o
    LEFT JOIN customer_products ocp ON ocp.pk = o.customer_product_pk
    WHERE o.customer_pk = new.customer_pk AND o.pk <> new.pk
      AND (k.e = -1 OR o.expired = k.e) AND (k.f = -1 OR o.feature_pk = k.f)
      AND (k.p = -1 OR COALESCE(ocp.plan_pk, 0) = k.p))
  ON CONFLICT (org_pk, env, feature_pk, plan_pk, expired, stripe) DO UPDATE SET
    customers = customers + 1;
END
;
{{sqlite}} CREATE TRIGGER balance_sums_amounts
AFTER UPDATE OF included_grant, prepaid_grant, remaining, usage ON balances
WHEN old.expired = new.expired
BEGIN
  UPDATE balance_sums SET
    included = md_decimal_shift(included, new.included_grant, old.included_grant),
    prepaid = md_decimal_shift(prepaid, new.prepaid_grant, old.prepaid_grant),
    remaining = md_decimal_shift(remaining, new.remaining, old.remaining),
    usage = md_decimal_shift(usage, new.usage, old.usage)
  WHERE org_pk = new.org_pk AND env = new.env AND feature_pk = new.feature_pk
    AND plan_pk = COALESCE((SELECT plan_pk FROM customer_products
      WHERE pk = new.customer_product_pk), 0)
    AND expired = new.expired AND stripe = new.customer_pk % 8;
END
;
{{sqlite}} CREATE TRIGGER balance_sums_state AFTER UPDATE OF expired ON balances
WHEN old.expired <> new.expired
BEGIN
  UPDATE balance_sums SET balances = balances - 1,
    included = md_decimal_shift(included, '0', old.included_grant),
    prepaid = md_decimal_shift(prepaid, '0', old.prepaid_grant),
    remaining = md_decimal_shift(remaining, '0', old.remaining),
    usage = md_decimal_shift(usage, '0', old.usage)
  WHERE org_pk = old.org_pk AND env = old.env AND feature_pk = old.feature_pk
    AND plan_pk = COALESCE((SELECT plan_pk FROM customer_products
      WHERE pk = old.customer_product_pk), 0)
    AND expired = old.expired AND stripe = old.customer_pk % 8;
  INSERT INTO balance_sums (org_pk, env, feature_pk, plan_pk, expired, stripe, balances, included,
    prepaid, remaining, usage)
  VALUES (new.org_pk, new.env, new.feature_pk,
    COALESCE((SELECT plan_pk FROM customer_products WHERE pk = new.customer_product_pk), 0),
    new.expired, new.customer_pk % 8, 1, new.included_grant, new.prepaid_grant, new.remaining,
    new.usage)
  ON CONFLICT (org_pk, env, feature_pk, plan_pk, expired, stripe) DO UPDATE SET
    balances = balances + 1, included = md_decimal_add(included, excluded.included),
    prepaid = md_decimal_add(prepaid, excluded.prepaid),
    remaining = md_decimal_add(remaining, excluded.remaining),
    usage = md_decimal_add(usage, excluded.usage);
  UPDATE balance_customers SET customers = customers - 1
  WHERE org_pk = old.org_pk AND env = old.env AND stripe = old.customer_pk % 8
    AND expired = old.expired AND (feature_pk, plan_pk) IN (
      SELECT k.f, k.p FROM (
        SELECT CASE WHEN l.by_feature = 1 THEN old.feature_pk ELSE -1 END AS f,
          CASE WHEN l.by_plan = 1 THEN COALESCE((SELECT plan_pk FROM customer_products
            WHERE pk = old.customer_product_pk), 0) ELSE -1 END AS p
        FROM balance_levels l WHERE l.by_state = 1) k
      WHERE NOT EXISTS (SELECT 1 FROM balances o
        LEFT JOIN customer_products ocp ON ocp.pk = o.customer_product_pk
        WHERE o.customer_pk = old.customer_pk AND o.pk <> old.pk AND o.expired = old.expired
          AND (k.f = -1 OR o.feature_pk = k.f) AND (k.p = -1 OR COALESCE(ocp.plan_pk, 0) = k.p)));
  INSERT INTO balance_customers (org_pk, env, feature_pk, plan_pk, expired, stripe, customers)
  SELECT new.org_pk, new.env, k.f, k.p, new.expired, new.customer_pk % 8, 1 FROM (
    SELECT CASE WHEN l.by_feature = 1 THEN new.feature_pk ELSE -1 END AS f,
      CASE WHEN l.by_plan = 1 THEN COALESCE((SELECT plan_pk FROM customer_products
        WHERE pk = new.customer_product_pk), 0) ELSE -1 END AS p
    FROM balance_levels l WHERE l.by_state = 1) k
  WHERE NOT EXISTS (SELECT 1 FROM balances o
    LEFT JOIN customer_products ocp ON ocp.pk = o.customer_product_pk
    WHERE o.customer_pk = new.customer_pk AND o.pk <> new.pk AND o.expired = new.expired
      AND (k.f = -1 OR o.feature_pk = k.f) AND (k.p = -1 OR COALESCE(ocp.plan_pk, 0) = k.p))
  ON CONFLICT (org_pk, env, feature_pk, plan_pk, expired, stripe) DO UPDATE SET
    customers = customers + 1;
END
;
-- PostgreSQL: statement triggers over the statement's old and new rows, so a
-- batch of track calls costs one upsert per group it touches. Each changed
-- row counts +1 as it is now and -1 as it was; a customer counts in a group
-- when it holds rows there after the statement, and did before it when
-- those rows less the statement's net change there are still some. A row's
-- plan is looked up by key, never joined: a join hashed every customer
-- product for each statement. No JIT: the planner's guess at a generic
-- plan's rows made it compile each statement for over a second, for a few
-- dozen rows. OFFSET 0 counts each customer's rows once, not once per use.
-- A transaction that sets meterdesk.keep_sums to 'off' (a workspace load)
-- keeps none and rebuilds its scopes' at its end: in one transaction every
-- update of a kept row leaves a version no one can prune before the commit,
-- so each next update of it walks them all.
{{postgres}} CREATE TYPE balance_change AS (sign INTEGER, moved BOOLEAN, org_pk BIGINT, env TEXT,
  customer_pk BIGINT, feature_pk BIGINT, customer_product_pk BIGINT, expired INTEGER,
  included_grant TEXT, prepaid_grant TEXT, remaining TEXT, usage TEXT)
;
{{postgres}} CREATE FUNCTION balance_sums_apply(changes balance_change[]) RETURNS void
LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO balance_sums AS s (org_pk, env, feature_pk, plan_pk, expired, stripe, balances,
    included, prepaid, remaining, usage)
  SELECT c.org_pk, c.env, c.feature_pk, c.plan_pk, c.expired, c.customer_pk % 8,
    SUM(c.sign), SUM(c.sign * c.included_grant::numeric), SUM(c.sign * c.prepaid_grant::numeric),
    SUM(c.sign * c.remaining::numeric), SUM(c.sign * c.usage::numeric)
  FROM (SELECT u.*, COALESCE((SELECT plan_pk FROM customer_products
          WHERE pk = u.customer_product_pk), 0) AS plan_pk FROM unnest(changes) u) c
  GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (org_pk, env, feature_pk, plan_pk, expired, stripe) DO UPDATE SET
    balances = s.balances + excluded.balances, included = s.included + excluded.included,
    prepaid = s.prepaid + excluded.prepaid, remaining = s.remaining + excluded.remaining,
    usage = s.usage + excluded.usage;
  INSERT INTO balance_customers AS s (org_pk, env, feature_pk, plan_pk, expired, stripe, customers)
  SELECT k.org_pk, k.env, k.f, k.p, k.e, k.customer_pk % 8,
    SUM((k.now > 0)::int - (k.now - k.net > 0)::int)
  FROM (SELECT g.*, (SELECT count(*) FROM balances o
          WHERE o.customer_pk = g.customer_pk AND (g.e = -1 OR o.expired = g.e)
            AND (g.f = -1 OR o.feature_pk = g.f)
            AND (g.p = -1 OR COALESCE((SELECT plan_pk FROM customer_products
              WHERE pk = o.customer_product_pk), 0) = g.p)) AS now
        FROM (SELECT c.org_pk, c.env, c.customer_pk,
                CASE WHEN l.by_feature = 1 THEN c.feature_pk ELSE -1 END AS f,
                CASE WHEN l.by_plan = 1 THEN c.plan_pk ELSE -1 END AS p,
                CASE WHEN l.by_state = 1 THEN c.expired ELSE -1 END AS e, SUM(c.sign) AS net
              FROM (SELECT u.*, COALESCE((SELECT plan_pk FROM customer_products
                      WHERE pk = u.customer_product_pk), 0) AS plan_pk
                    FROM unnest(changes) u WHERE u.moved) c
              CROSS JOIN balance_levels l GROUP BY 1, 2, 3, 4, 5, 6) g
        WHERE g.net <> 0 OFFSET 0) k
  GROUP BY 1, 2, 3, 4, 5, 6 HAVING SUM((k.now > 0)::int - (k.now - k.net > 0)::int) <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (org_pk, env, feature_pk, plan_pk, expired, stripe) DO UPDATE SET
    customers = s.customers + excluded.customers;
END $$
;
{{postgres}} CREATE FUNCTION balance_sums_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('meterdesk.keep_sums', true) = 'off' THEN
    RETURN NULL;
  END IF;
  PERFORM balance_sums_apply(ARRAY(SELECT ROW(1, true, n.org_pk, n.env, n.customer_pk,
    n.feature_pk, n.customer_product_pk, n.expired, n.included_grant, n.prepaid_grant,
    n.remaining, n.usage)::balance_change FROM new_rows n));
  RETURN NULL;
END $$
;
{{postgres}} CREATE FUNCTION balance_sums_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes balance_change[];
BEGIN
  IF current_setting('meterdesk.keep_sums', true) = 'off' THEN
    RETURN NULL;
  END IF;
  changes := ARRAY(
    SELECT ROW(s.sign, o.expired <> n.expired, o.org_pk, o.env, o.customer_pk, o.feature_pk,
      o.customer_product_pk, CASE WHEN s.sign = 1 THEN n.expired ELSE o.expired END,
      CASE WHEN s.sign = 1 THEN n.included_grant ELSE o.included_grant END,
      CASE WHEN s.sign = 1 THEN n.prepaid_grant ELSE o.prepaid_grant END,
      CASE WHEN s.sign = 1 THEN n.remaining ELSE o.remaining END,
      CASE WHEN s.sign = 1 THEN n.usage ELSE o.usage END)::balance_change
    FROM old_rows o JOIN new_rows n ON n.pk = o.pk CROSS JOIN (VALUES (1), (-1)) AS s(sign)
    WHERE (o.included_grant, o.prepaid_grant, o.remaining, o.usage, o.expired)
      IS DISTINCT FROM (n.included_grant, n.prepaid_grant, n.remaining, n.usage, n.expired));
  IF cardinality(changes) > 0 THEN
    PERFORM balance_sums_apply(changes);
  END IF;
  RETURN NULL;
END $$
;
{{postgres}} CREATE TRIGGER balance_sums_insert AFTER INSERT ON balances
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION balance_sums_inserted()
;
{{postgres}} CREATE TRIGGER balance_sums_update AFTER UPDATE ON balances
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION balance_sums_updated()
;
{{postgres}} CREATE FUNCTION balances_expired_standalone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.expired := (NEW.expired_at IS NOT NULL)::int;
  RETURN NEW;
END $$
;
{{postgres}} CREATE TRIGGER balances_expired_standalone BEFORE UPDATE OF expired_at ON balances
FOR EACH ROW WHEN (NEW.customer_product_pk IS NULL) EXECUTE FUNCTION balances_expired_standalone()
;
{{postgres}} CREATE FUNCTION balances_expired_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.expired := CASE WHEN NEW.customer_product_pk IS NULL THEN (NEW.expired_at IS NOT NULL)::int
    ELSE COALESCE((SELECT (status = 'expired')::int FROM customer_products
      WHERE pk = NEW.customer_product_pk), 0) END;
  RETURN NEW;
END $$
;
{{postgres}} CREATE TRIGGER balances_expired_inserted BEFORE INSERT ON balances
FOR EACH ROW WHEN (NEW.customer_product_pk IS NOT NULL OR NEW.expired_at IS NOT NULL)
EXECUTE FUNCTION balances_expired_inserted()
;
{{postgres}} CREATE FUNCTION customer_products_expired() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE balances SET expired = (NEW.status = 'expired')::int WHERE customer_product_pk = NEW.pk;
  RETURN NULL;
END $$
;
{{postgres}} CREATE TRIGGER customer_products_expired AFTER UPDATE OF status ON customer_products
FOR EACH ROW WHEN ((OLD.status = 'expired') <> (NEW.status = 'expired'))
EXECUTE FUNCTION customer_products_expired()
;
