-- usage_events.totals flat at any size (issue 53; docs/performance.md,
-- "usage_events.totals"): the events of each UTC day added up per feature
-- and model ('' for events of no model), kept by the writes that record the
-- events, in the same transaction, and filled here from the events recorded
-- before (Migrator's step after this script). A chart of whole days reads
-- these rows, not the events. `stripe` is the customer's key modulo 8, so writers of
-- different customers on PostgreSQL mostly meet on different rows. `value`
-- is an exact decimal sum (md_decimal_sum on SQLite, numeric on
-- PostgreSQL); `workspace verify` checks every row against the events.
CREATE TABLE usage_days (
  org_pk BIGINT NOT NULL,
  env TEXT NOT NULL,
  day BIGINT NOT NULL,
  feature_pk BIGINT NOT NULL,
  model_id TEXT NOT NULL,
  stripe INTEGER NOT NULL,
  events BIGINT NOT NULL,
  value TEXT NOT NULL,
  tokens BIGINT NOT NULL,
  PRIMARY KEY (org_pk, env, day, feature_pk, model_id, stripe)
)
