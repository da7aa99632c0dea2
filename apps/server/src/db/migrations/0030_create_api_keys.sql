-- API keys (issue 20): a program calls the API in a user's name with a key instead of a session,
-- each call signed with the key's secret (HMAC-SHA256; see the api-keys module and
-- docs/adr/0010). The public id is 64 letters and digits, as Binance's keys are. The secret must be
-- read back to check signatures, so it is kept sealed (AES-256-GCM under TWO_FACTOR_KEY, the
-- two-factor module's sealing), never in the clear. Permissions are read and trade only: there is
-- no withdrawal or transfer permission to grant. An empty ip_list accepts any address. A key acts
-- in the book it was created in (0 live, 2 demo). Revoked keys stay, for the usage log.
CREATE TABLE api_key (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES app_user (id),
  api_key text NOT NULL UNIQUE CHECK (api_key ~ '^[A-Za-z0-9]{64}$'),
  secret_sealed text NOT NULL CHECK (length(secret_sealed) <= 512),
  label text NOT NULL CHECK (length(label) BETWEEN 1 AND 64),
  permissions text[] NOT NULL
    CHECK (cardinality(permissions) BETWEEN 1 AND 2 AND permissions <@ ARRAY['read', 'trade']),
  ip_list text[] NOT NULL DEFAULT '{}'
    CHECK (cardinality(ip_list) <= 30 AND array_position(ip_list, NULL) IS NULL),
  account_type smallint NOT NULL CHECK (account_type IN (0, 2)),
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_key_user_idx ON api_key (user_id, id DESC);

-- Every call made with a key, accepted or refused (a refusal is logged once the key is known):
-- when, the route, the client's address and the answer (HTTP status and hint key). Kept 30 days:
-- each batch of writes deletes a bounded batch of older rows (as the login history, ADR 0009).
CREATE TABLE api_key_usage (
  id bigserial PRIMARY KEY,
  api_key_id bigint NOT NULL REFERENCES api_key (id),
  user_id bigint NOT NULL REFERENCES app_user (id),
  created_at timestamptz NOT NULL,
  method text NOT NULL CHECK (length(method) <= 8),
  path text NOT NULL CHECK (length(path) <= 256),
  ip text CHECK (length(ip) <= 64),
  status smallint NOT NULL CHECK (status BETWEEN 100 AND 599),
  msg text NOT NULL CHECK (length(msg) <= 64)
);
CREATE INDEX api_key_usage_user_idx ON api_key_usage (user_id, id DESC);
CREATE INDEX api_key_usage_key_idx ON api_key_usage (api_key_id, id DESC);
CREATE INDEX api_key_usage_time_idx ON api_key_usage (created_at);

-- The signatures accepted within their receive window, so that none is accepted twice: the hash
-- of key and signature, and when its window closes (after which its timestamp is refused anyway).
-- Written by every signed call and pruned as it is written; unlogged (as attempt_limit, 0020): no
-- WAL, and only a crash of PostgreSQL empties it, forgetting at most the last minute's signatures.
CREATE UNLOGGED TABLE api_key_signature (
  signature_hash text PRIMARY KEY CHECK (signature_hash ~ '^[0-9a-f]{64}$'),
  expires_at timestamptz NOT NULL
);
CREATE INDEX api_key_signature_expires_idx ON api_key_signature (expires_at);
