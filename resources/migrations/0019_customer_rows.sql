-- balances.pages flat on PostgreSQL (issue 53; docs/performance.md, "Totals
-- from kept sums"). SQLite steps over an index's keys inside one statement
-- at about 50 ns a key; PostgreSQL's executor hands each key from node to
-- node at about 0.3 µs, so stepping over 1,740,000 of them alone takes
-- 0.55 s. It reads instead how many rows each customer holds of each state,
-- of any feature (-1) and of each feature, and looks into the balances only
-- where a page starts.
--
-- balance_customer_rows: kept by balance_sums_apply (migration 18's
-- triggers), whose rows change only when a balance arrives or its state
-- changes, never on a track call's amounts. A row that falls to zero stays.
-- SQLite keeps none. Filled below; `workspace verify` compares it with the
-- balances.
{{postgres}} CREATE TABLE balance_customer_rows (
  org_pk BIGINT NOT NULL,
  env TEXT NOT NULL,
  feature_pk BIGINT NOT NULL,
  expired INTEGER NOT NULL,
  customer_pk BIGINT NOT NULL,
  balances BIGINT NOT NULL,
  PRIMARY KEY (org_pk, env, feature_pk, expired, customer_pk) INCLUDE (balances)
)
;
{{postgres}} INSERT INTO balance_customer_rows (org_pk, env, feature_pk, expired, customer_pk,
  balances)
SELECT b.org_pk, b.env, f.f, b.expired, b.customer_pk, count(*) FROM balances b
CROSS JOIN LATERAL (VALUES (b.feature_pk), (-1)) AS f(f)
GROUP BY b.org_pk, b.env, f.f, b.expired, b.customer_pk
;
{{postgres}} CREATE OR REPLACE FUNCTION balance_sums_apply(changes balance_change[]) RETURNS void
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
  IF NOT EXISTS (SELECT 1 FROM unnest(changes) u WHERE u.moved) THEN
    RETURN; -- amounts only: no row arrived or changed its state
  END IF;
  INSERT INTO balance_customer_rows AS s (org_pk, env, feature_pk, expired, customer_pk,
    balances)
  SELECT u.org_pk, u.env, f.f, u.expired, u.customer_pk, SUM(u.sign)
  FROM unnest(changes) u CROSS JOIN LATERAL (VALUES (u.feature_pk), (-1)) AS f(f)
  WHERE u.moved GROUP BY 1, 2, 3, 4, 5 HAVING SUM(u.sign) <> 0 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (org_pk, env, feature_pk, expired, customer_pk) DO UPDATE SET
    balances = s.balances + excluded.balances;
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
