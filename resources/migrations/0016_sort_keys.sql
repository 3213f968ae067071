-- balances.list sorted by remaining, usage or next reset (issue 53; docs/
-- api.md, balances.list), flat at any size: each order walks its own index
-- in key order, the balance key breaking ties. The expressions are the
-- ones BalanceWhere sorts by, word for word, so both databases use them.
CREATE INDEX balances_by_remaining ON balances
  (org_pk, env, (CAST(remaining AS DOUBLE PRECISION)), pk)
;
CREATE INDEX balances_by_usage ON balances
  (org_pk, env, (CAST(usage AS DOUBLE PRECISION)), pk)
;
CREATE INDEX balances_by_next_reset ON balances
  (org_pk, env, (CAST(COALESCE(resets_at, 9000000000000000000) AS DOUBLE PRECISION)), pk)
;
