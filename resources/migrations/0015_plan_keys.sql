-- balances.list by plan covers every version of the plan ("a plan's versions
-- are one plan", docs/api.md; issue 51), in customer order and flat at any
-- size (tst_queryplans). A plan's versions are rows of their own, so each
-- customer product keeps its plan's key: that of the plan's lowest version.
-- It never changes: versions are only added, each above the newest, and a
-- rename keeps every row's key.
ALTER TABLE customer_products ADD COLUMN plan_pk BIGINT
;
UPDATE customer_products SET plan_pk = (
  SELECT f.pk FROM products p JOIN products f
    ON f.org_pk = p.org_pk AND f.env = p.env AND f.id = p.id
  WHERE p.pk = customer_products.product_pk ORDER BY f.version LIMIT 1)
;
CREATE INDEX customer_products_by_plan ON customer_products (plan_pk, customer_pk)
;
