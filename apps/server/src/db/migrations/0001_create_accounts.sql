-- Users, sessions, verification codes and attempt limits.

CREATE TABLE app_user (
  id bigserial PRIMARY KEY,
  reg_type smallint NOT NULL CHECK (reg_type IN (0, 1)),
  area_code text CHECK (area_code ~ '^[1-9][0-9]{0,3}$'),
  phone text CHECK (phone ~ '^[0-9]{4,14}$'),
  email text CHECK (email = lower(email) AND length(email) <= 254),
  user_account text NOT NULL CHECK (length(user_account) <= 254),
  password_hash text NOT NULL,
  with_pwd_hash text,
  nick_name text NOT NULL CHECK (length(nick_name) BETWEEN 1 AND 32),
  avatar text CHECK (length(avatar) <= 512),
  invite_code text NOT NULL UNIQUE,
  inviter_id bigint REFERENCES app_user (id),
  -- The account type a new session starts in: 0 live, 2 demo.
  account_type smallint NOT NULL DEFAULT 0 CHECK (account_type IN (0, 2)),
  -- 0 active, 1 disabled by an operator.
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1)),
  -- Identity verification: 0 none, 1 under review, 2 verified, 3 rejected.
  auth_status smallint NOT NULL DEFAULT 0 CHECK (auth_status IN (0, 1, 2, 3)),
  pwd_changed_at timestamptz,
  with_pwd_changed_at timestamptz,
  created_at timestamptz NOT NULL,
  last_login_at timestamptz,
  CHECK (
    (reg_type = 0 AND phone IS NOT NULL AND area_code IS NOT NULL)
    OR (reg_type = 1 AND email IS NOT NULL)
  )
);
CREATE UNIQUE INDEX app_user_phone_key ON app_user (area_code, phone) WHERE phone IS NOT NULL;
CREATE UNIQUE INDEX app_user_email_key ON app_user (email) WHERE email IS NOT NULL;

-- Opaque session tokens, stored as SHA-256 hashes only.
CREATE TABLE user_session (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES app_user (id),
  account_type smallint NOT NULL CHECK (account_type IN (0, 2)),
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  ip text,
  user_agent text CHECK (length(user_agent) <= 512)
);
CREATE INDEX user_session_user_idx ON user_session (user_id) WHERE revoked_at IS NULL;

CREATE TABLE verification_code (
  id bigserial PRIMARY KEY,
  channel text NOT NULL CHECK (channel IN ('email', 'phone')),
  target text NOT NULL,
  purpose text NOT NULL,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  consumed_at timestamptz
);
CREATE INDEX verification_code_target_idx ON verification_code (channel, target, purpose, created_at DESC);

-- Failure counters with lock-out: failed logins per account, wrong withdrawal passwords per user.
CREATE TABLE attempt_limit (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  first_failure_at timestamptz NOT NULL,
  locked_until timestamptz
);

-- Site messages: user_id NULL is a broadcast to everybody.
CREATE TABLE site_message (
  id bigserial PRIMARY KEY,
  user_id bigint REFERENCES app_user (id),
  title jsonb NOT NULL,
  content jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX site_message_user_idx ON site_message (user_id, id);

CREATE TABLE site_message_read (
  message_id bigint NOT NULL REFERENCES site_message (id),
  user_id bigint NOT NULL REFERENCES app_user (id),
  read_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, message_id)
);
