-- Two-factor authentication of users (TOTP, RFC 6238). One row per user once they start setting it
-- up; enabled_at is set when a first code confirmed the authenticator app. The shared secret is
-- kept sealed (AES-256-GCM under TWO_FACTOR_KEY, see two-factor/sealing.ts), never in the clear.
-- last_step is the 30-second step of the last code accepted: a code of that step or an earlier one
-- is refused, so a code works once (RFC 6238 section 5.2).
CREATE TABLE user_two_factor (
  user_id bigint PRIMARY KEY REFERENCES app_user (id),
  secret_sealed text NOT NULL CHECK (length(secret_sealed) <= 512),
  enabled_at timestamptz,
  last_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL
);

-- The 10 recovery codes given when two-factor is turned on, each usable once; only their SHA-256
-- hashes are kept (they are random, 50 bits, so a fast hash is enough). Turning two-factor off or
-- on again replaces them.
CREATE TABLE user_two_factor_recovery (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES app_user (id),
  code_hash text NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
  used_at timestamptz,
  UNIQUE (user_id, code_hash)
);

-- A sign-in waiting for its second factor: the right password was given, the session opens once a
-- code is. The token is answered once; only its hash is kept. It lives 5 minutes and is used once.
CREATE TABLE user_two_factor_challenge (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  user_id bigint NOT NULL REFERENCES app_user (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX user_two_factor_challenge_expires ON user_two_factor_challenge (expires_at);
