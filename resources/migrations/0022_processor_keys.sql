-- The organizations' payment processor secret keys (issue 55; docs/processors.md).
-- One per organization and environment, connected with `meterdesk-server
-- processors connect`. `sealed` is the key encrypted with AES-256-GCM under
-- a key drawn from the workspace secret, bound to the organization and the
-- environment (ProcessorKeys); `hint` is what may be shown of it
-- (sk_test_…1234). Neither dumps, logs, the audit log nor answers carry
-- the key.
CREATE TABLE processor_keys (
  org_pk BIGINT NOT NULL REFERENCES organizations(pk),
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  sealed TEXT NOT NULL,
  hint TEXT NOT NULL,
  connected_at BIGINT NOT NULL,
  PRIMARY KEY (org_pk, env)
)
;
-- The stand-in directory of accounts the master could reach, from workspace
-- files: the platform link asks Stripe now (PlatformLinker). A file that
-- still lists `accessible_accounts` loads, and the load says they were left.
DROP TABLE processor_access
;
