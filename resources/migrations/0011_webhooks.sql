-- Webhooks (issue 38; docs/api.md, "Webhooks"): endpoints an environment
-- sends its events to, and an outbox of those events written in the same
-- transaction as the change each reports, so a rolled-back change sends
-- nothing and a committed one is delivered even after a crash.
--
-- secret: the signing secret (whsec_…) as issued. It is kept, not hashed,
-- because signing needs it (docs/operations.md, "Webhooks"); answers show
-- it only when it is made. previous_secret signs beside it until
-- previous_until after a rotation. lease_until and lease_owner: the server
-- sending this endpoint's deliveries now, so that one server at a time
-- sends them, in order. failing_since: the first failed attempt since the
-- last success, for disabling an endpoint that fails for five days.
CREATE TABLE webhook_endpoints (
  pk {{pk}},
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  description TEXT,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_until BIGINT,
  disabled_at BIGINT,
  disabled_reason TEXT,
  failing_since BIGINT,
  lease_owner TEXT,
  lease_until BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
)
;
CREATE INDEX webhook_endpoints_by_env ON webhook_endpoints (org_pk, env, pk)
;
{{sequence webhook_endpoints}}
;
-- One row per event some endpoint wanted: its body as sent (the bytes the
-- signature covers), so every attempt and a redelivery send the same.
CREATE TABLE webhook_events (
  pk {{pk}},
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  type TEXT NOT NULL,
  at BIGINT NOT NULL,
  body TEXT NOT NULL
)
;
{{sequence webhook_events}}
;
-- One row per event and endpoint. status: pending until an answer in 2xx
-- (succeeded) or the last retry failed (failed). endpoint_pk has no foreign
-- key: an event written beside an endpoint's deletion on another server may
-- leave a delivery of an endpoint that is gone, which no sender takes,
-- rather than fail the change it reports.
CREATE TABLE webhook_deliveries (
  pk {{pk}},
  event_pk BIGINT NOT NULL REFERENCES webhook_events(pk),
  endpoint_pk BIGINT NOT NULL,
  org_pk BIGINT NOT NULL,
  env TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT,
  last_attempt_at BIGINT,
  last_status INTEGER,
  last_answer TEXT,
  last_error TEXT,
  created_at BIGINT NOT NULL
)
;
CREATE INDEX webhook_deliveries_by_env ON webhook_deliveries (org_pk, env, pk)
;
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_pk, pk)
;
-- The senders' look: each endpoint's oldest pending delivery.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_pk, pk)
WHERE status = 'pending'
;
{{sequence webhook_deliveries}}
;
-- The window of each limit whose first refusal was told
-- (balances.limit_reached): a usage limit's interval, a spend limit's
-- billing period (its balances' next reset; 0 for none). A refusal in a
-- window already told tells nothing more. entity_pk 0: the customer's own.
CREATE TABLE limit_reached (
  customer_pk BIGINT NOT NULL REFERENCES customers(pk),
  entity_pk BIGINT NOT NULL,
  feature_pk BIGINT NOT NULL REFERENCES features(pk),
  kind TEXT NOT NULL CHECK (kind IN ('usage', 'spend')),
  window_start BIGINT NOT NULL,
  PRIMARY KEY (customer_pk, entity_pk, feature_pk, kind)
)
