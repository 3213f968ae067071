-- API keys with a lifecycle (issue 39; docs/api.md, "API keys"): a key may
-- expire, be revoked, and be rolled to a new secret while the old one still
-- works for an overlap; the list shows when each was last used.
--
-- expires_at, revoked_at: a key is refused from either moment on (every
-- server sees it within its key cache's second). last_used_at: the minute a
-- key was last used, rounded down, written at most once a minute per key
-- per server, so a busy key costs no write per call. previous_hash: the
-- secret before a roll, which still authenticates until previous_until.
-- rolled_at: the last roll, so the audit log and the list show one.
ALTER TABLE api_keys ADD COLUMN expires_at BIGINT
;
ALTER TABLE api_keys ADD COLUMN revoked_at BIGINT
;
ALTER TABLE api_keys ADD COLUMN last_used_at BIGINT
;
ALTER TABLE api_keys ADD COLUMN previous_hash TEXT
;
ALTER TABLE api_keys ADD COLUMN previous_until BIGINT
;
ALTER TABLE api_keys ADD COLUMN rolled_at BIGINT
;
CREATE UNIQUE INDEX api_keys_previous_hash ON api_keys (previous_hash)
  WHERE previous_hash IS NOT NULL
;
