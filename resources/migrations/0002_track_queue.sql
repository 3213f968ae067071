-- Token metering (issue 5).
-- Asynchronous balances.track_tokens calls (docs/api.md, balances.track_tokens): each request is
-- stored here before the 204 and applied by the engine's queue worker, so a
-- restart loses none. A request the worker cannot apply stays, with its error.
CREATE TABLE track_queue (
  pk {{pk}},
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  request TEXT NOT NULL,
  idempotency_key TEXT,
  received_at BIGINT NOT NULL,
  failed_at BIGINT,
  error TEXT,
  UNIQUE (org_pk, env, idempotency_key)
)
;
CREATE INDEX track_queue_pending ON track_queue (failed_at, pk)
;
-- The Usage page lists an organization's events newest first by their time.
CREATE INDEX usage_events_by_time ON usage_events (org_pk, env, timestamp, pk)
;
{{sequence track_queue}}
