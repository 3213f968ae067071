-- Meterdesk schema, version 1. Runs on SQLite and PostgreSQL alike: types are
-- plain (TEXT, BIGINT, INTEGER 0/1 for booleans); amounts are exact decimal
-- TEXT; timestamps are Unix milliseconds. Primary keys are allocated by the
-- engine (allocateKeys) so bulk loads can insert many rows per statement.
-- Statements are separated by a line holding only ";".

CREATE TABLE organizations (
  pk {{pk}},
  id TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  master_org_pk BIGINT REFERENCES organizations(pk),
  test_secret_connected INTEGER NOT NULL DEFAULT 0,
  live_secret_connected INTEGER NOT NULL DEFAULT 0,
  test_account_id TEXT,
  live_account_id TEXT,
  linked_at BIGINT,
  created_at BIGINT NOT NULL
)
;
-- The master processor account's directory: which account ids it can reach.
CREATE TABLE processor_access (
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  account_id TEXT NOT NULL,
  PRIMARY KEY (org_pk, env, account_id)
)
;
CREATE TABLE api_keys (
  pk {{pk}},
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  prefix TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL
)
;
CREATE TABLE features (
  pk {{pk}},
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  default_markup TEXT,
  created_at BIGINT NOT NULL,
  UNIQUE (org_pk, env, id)
)
;
-- Markups of an AI credit system; model '' is the provider-wide markup.
CREATE TABLE credit_markups (
  feature_pk BIGINT NOT NULL REFERENCES features(pk),
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  markup TEXT NOT NULL,
  PRIMARY KEY (feature_pk, provider, model)
)
;
CREATE TABLE products (
  pk {{pk}},
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  id TEXT NOT NULL,
  version BIGINT NOT NULL,
  name TEXT NOT NULL,
  group_name TEXT,
  is_add_on INTEGER NOT NULL,
  is_default INTEGER NOT NULL,
  archived INTEGER NOT NULL,
  items TEXT NOT NULL,
  free_trial TEXT,
  created_at BIGINT NOT NULL,
  UNIQUE (org_pk, env, id, version)
)
;
CREATE TABLE customers (
  pk {{pk}},
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  fingerprint TEXT,
  metadata TEXT NOT NULL,
  send_email_receipts INTEGER NOT NULL,
  disable_pooled_balance INTEGER NOT NULL,
  disable_overage_billing INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (org_pk, env, id)
)
;
CREATE TABLE customer_processors (
  customer_pk BIGINT NOT NULL REFERENCES customers(pk),
  type TEXT NOT NULL,
  external_id TEXT NOT NULL,
  PRIMARY KEY (customer_pk, type)
)
;
CREATE TABLE entities (
  pk {{pk}},
  customer_pk BIGINT NOT NULL REFERENCES customers(pk),
  id TEXT NOT NULL,
  feature_id TEXT,
  name TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (customer_pk, id)
)
;
CREATE TABLE customer_products (
  pk {{pk}},
  id TEXT NOT NULL UNIQUE,
  customer_pk BIGINT NOT NULL REFERENCES customers(pk),
  product_pk BIGINT NOT NULL REFERENCES products(pk),
  processor TEXT,
  subscription_id TEXT,
  schedule_id TEXT,
  status TEXT NOT NULL,
  quantity BIGINT NOT NULL,
  started_at BIGINT NOT NULL,
  current_period_start BIGINT,
  current_period_end BIGINT,
  trial_ends_at BIGINT,
  canceled_at BIGINT,
  expires_at BIGINT,
  created_at BIGINT NOT NULL
)
;
CREATE INDEX customer_products_by_customer ON customer_products (customer_pk)
;
-- One row per grant. pk is allocated downwards, so ascending (customer_pk, pk)
-- is the listing order: customers in creation order, newest balance first.
CREATE TABLE balances (
  pk {{pk}},
  id TEXT NOT NULL UNIQUE,
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  customer_pk BIGINT NOT NULL REFERENCES customers(pk),
  entity_pk BIGINT REFERENCES entities(pk),
  feature_pk BIGINT NOT NULL REFERENCES features(pk),
  customer_product_pk BIGINT REFERENCES customer_products(pk),
  included_grant TEXT NOT NULL,
  prepaid_grant TEXT NOT NULL,
  remaining TEXT NOT NULL,
  usage TEXT NOT NULL,
  unlimited INTEGER NOT NULL,
  overage_allowed INTEGER NOT NULL,
  reset_interval TEXT,
  reset_interval_count BIGINT,
  resets_at BIGINT,
  price TEXT,
  expires_at BIGINT,
  created_at BIGINT NOT NULL
)
;
CREATE INDEX balances_by_customer ON balances (org_pk, env, customer_pk, pk)
;
CREATE INDEX balances_by_feature ON balances (org_pk, env, feature_pk, customer_pk, pk)
;
CREATE INDEX balances_by_customer_product ON balances (customer_product_pk)
;
CREATE TABLE rollovers (
  pk {{pk}},
  balance_pk BIGINT NOT NULL REFERENCES balances(pk),
  granted TEXT NOT NULL,
  balance TEXT NOT NULL,
  expires_at BIGINT NOT NULL
)
;
CREATE INDEX rollovers_by_balance ON rollovers (balance_pk)
;
CREATE TABLE rewards (
  pk {{pk}},
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('coupon', 'feature_grant')),
  record TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (org_pk, env, id)
)
;
CREATE TABLE promo_codes (
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  code TEXT NOT NULL,
  reward_pk BIGINT NOT NULL REFERENCES rewards(pk),
  PRIMARY KEY (org_pk, env, code)
)
;
CREATE TABLE usage_events (
  pk {{pk}},
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  customer_pk BIGINT NOT NULL REFERENCES customers(pk),
  entity_pk BIGINT REFERENCES entities(pk),
  feature_pk BIGINT NOT NULL REFERENCES features(pk),
  model_id TEXT,
  tokens TEXT NOT NULL,
  value TEXT NOT NULL,
  properties TEXT NOT NULL,
  timestamp BIGINT NOT NULL,
  idempotency_key TEXT,
  created_at BIGINT NOT NULL,
  UNIQUE (org_pk, env, idempotency_key)
)
;
CREATE INDEX usage_events_by_customer ON usage_events (customer_pk, timestamp)

;
{{sequence organizations}}
;
{{sequence api_keys}}
;
{{sequence features}}
;
{{sequence products}}
;
{{sequence customers}}
;
{{sequence entities}}
;
{{sequence customer_products}}
;
{{sequence balances}}
;
{{sequence rollovers}}
;
{{sequence rewards}}
;
{{sequence usage_events}}
