-- Every per-call read reaches its rows through an index bounded by the
-- customer or the row's key, never by the organization alone (issue 35;
-- docs/performance.md, "Flat at any size"; tst_queryplans checks it).
--
-- usage_events.list by customer: its own index again. Migration 7 dropped it
-- to save the page a commit writes per customer; a read that walks the
-- organization's events costs more as the organization grows, and that page
-- is a constant (measured in docs/performance.md).
CREATE INDEX usage_events_by_customer ON usage_events (customer_pk, timestamp, pk)
;
-- balances.list by plan: the plan's customer products in customer order,
-- then each one's balances (balances_by_customer_product).
CREATE INDEX customer_products_by_product ON customer_products (product_pk, customer_pk)
;
-- balances.list of standalone rows (plan_id null): only those rows, in the
-- listing's order. Track calls change no column of it.
CREATE INDEX standalone_balances ON balances (org_pk, env, customer_pk, pk)
WHERE customer_product_pk IS NULL
;
-- customers.list with a search: a substring of the id, name or email, case
-- folded. SQLite: an FTS5 trigram index kept by triggers (customers change
-- by import and load, never per call). PostgreSQL: pg_trgm, one GIN index
-- per column, combined by the planner. Searches shorter than three
-- characters have no trigram and walk the customers in key order instead.
{{sqlite}} CREATE VIRTUAL TABLE customers_search USING fts5(
  id, name, email, content = 'customers', content_rowid = 'pk', tokenize = 'trigram')
;
{{sqlite}} INSERT INTO customers_search (customers_search) VALUES ('rebuild')
;
{{sqlite}} CREATE TRIGGER customers_search_insert AFTER INSERT ON customers BEGIN
  INSERT INTO customers_search (rowid, id, name, email) VALUES (new.pk, new.id, new.name, new.email);
END
;
{{sqlite}} CREATE TRIGGER customers_search_delete AFTER DELETE ON customers BEGIN
  INSERT INTO customers_search (customers_search, rowid, id, name, email)
  VALUES ('delete', old.pk, old.id, old.name, old.email);
END
;
{{sqlite}} CREATE TRIGGER customers_search_update AFTER UPDATE OF id, name, email ON customers BEGIN
  INSERT INTO customers_search (customers_search, rowid, id, name, email)
  VALUES ('delete', old.pk, old.id, old.name, old.email);
  INSERT INTO customers_search (rowid, id, name, email) VALUES (new.pk, new.id, new.name, new.email);
END
;
{{postgres}} CREATE EXTENSION IF NOT EXISTS pg_trgm
;
{{postgres}} CREATE INDEX customers_search_id ON customers USING gin (lower(id) gin_trgm_ops)
;
{{postgres}} CREATE INDEX customers_search_name ON customers USING gin (lower(name) gin_trgm_ops)
;
{{postgres}} CREATE INDEX customers_search_email ON customers USING gin (lower(email) gin_trgm_ops)
