-- Billing controls (docs/billing-controls.md). A customer's own controls
-- (entity_pk 0) or one entity's, kept as the wire's JSON: they are small and
-- read whole on every track_tokens call of the customer.
CREATE TABLE billing_controls (
  customer_pk BIGINT NOT NULL REFERENCES customers(pk),
  entity_pk BIGINT NOT NULL,
  controls TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (customer_pk, entity_pk)
)
;
-- Usage counted toward a usage limit in the interval now running.
CREATE TABLE usage_windows (
  customer_pk BIGINT NOT NULL REFERENCES customers(pk),
  entity_pk BIGINT NOT NULL,
  feature_pk BIGINT NOT NULL REFERENCES features(pk),
  window_interval TEXT NOT NULL,
  anchor TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  usage TEXT NOT NULL,
  PRIMARY KEY (customer_pk, entity_pk, feature_pk, window_interval, anchor)
)
;
-- Usage alerts that fired, newest first per environment.
CREATE TABLE usage_alert_events (
  pk {{pk}},
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  customer_pk BIGINT NOT NULL REFERENCES customers(pk),
  entity_pk BIGINT REFERENCES entities(pk),
  feature_pk BIGINT NOT NULL REFERENCES features(pk),
  name TEXT,
  threshold_type TEXT NOT NULL,
  threshold TEXT NOT NULL,
  value TEXT NOT NULL,
  triggered_at BIGINT NOT NULL
)
;
CREATE INDEX usage_alert_events_by_env ON usage_alert_events (org_pk, env, pk)
;
{{sequence usage_alert_events}}
;
-- A queued call that failed keeps the code and status a synchronous call
-- would have answered, beside its message.
ALTER TABLE track_queue ADD COLUMN error_code TEXT
;
ALTER TABLE track_queue ADD COLUMN error_status INTEGER
