-- Two-factor authentication of operators: the same shape as the users' (0026), in tables of their
-- own. Required for the admin and finance roles (an operator holding one without it may only set
-- it up); an admin can reset another operator's after a lost device (audited, their sessions end).
CREATE TABLE operator_two_factor (
  operator_id bigint PRIMARY KEY REFERENCES operator (id),
  secret_sealed text NOT NULL CHECK (length(secret_sealed) <= 512),
  enabled_at timestamptz,
  last_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL
);

CREATE TABLE operator_two_factor_recovery (
  id bigserial PRIMARY KEY,
  operator_id bigint NOT NULL REFERENCES operator (id),
  code_hash text NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
  used_at timestamptz,
  UNIQUE (operator_id, code_hash)
);

CREATE TABLE operator_two_factor_challenge (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  operator_id bigint NOT NULL REFERENCES operator (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX operator_two_factor_challenge_expires ON operator_two_factor_challenge (expires_at);
