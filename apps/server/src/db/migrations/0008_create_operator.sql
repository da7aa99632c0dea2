-- The operator console (PRODUCT sections 1 and 9): operator accounts with roles, their own
-- sessions (never valid on /api, as user sessions are never valid on /admin-api), and the audit
-- log of every operator action. Operators are disabled, never deleted; the audit log is
-- append-only like the ledger.

CREATE TABLE operator (
  id bigserial PRIMARY KEY,
  username text NOT NULL UNIQUE CHECK (username ~ '^[a-z0-9][a-z0-9._-]{2,31}$'),
  password_hash text NOT NULL,
  roles text[] NOT NULL CHECK (
    cardinality(roles) BETWEEN 1 AND 4
    AND roles <@ ARRAY['admin', 'finance', 'support', 'content']::text[]
  ),
  disabled boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  pwd_changed_at timestamptz,
  last_login_at timestamptz
);

-- Opaque session tokens, stored as SHA-256 hashes only.
CREATE TABLE operator_session (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  operator_id bigint NOT NULL REFERENCES operator (id),
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  ip text,
  user_agent text CHECK (length(user_agent) <= 512)
);
CREATE INDEX operator_session_operator_idx ON operator_session (operator_id) WHERE revoked_at IS NULL;

-- Who did what, to what, when, from where, with the state before and after. The operator's name
-- is copied so the entry reads the same whatever happens to the account later.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  operator_id bigint NOT NULL REFERENCES operator (id),
  operator_name text NOT NULL,
  action text NOT NULL CHECK (length(action) BETWEEN 1 AND 64),
  target_type text NOT NULL CHECK (length(target_type) BETWEEN 1 AND 32),
  target_id text CHECK (length(target_id) <= 64),
  before jsonb,
  after jsonb,
  ip text,
  created_at timestamptz NOT NULL
);
CREATE INDEX audit_log_operator_idx ON audit_log (operator_id, id DESC);
CREATE INDEX audit_log_action_idx ON audit_log (action, id DESC);
CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id, id DESC);

-- The triggers that keep operators and the audit log are in src/modules/admin/sql/audit.sql
-- (ADR 0007).
