-- The login history (issue 19): each sign-in attempt of an existing account (attempts naming no
-- account are not recorded), with its result, address and user agent. Kept 90 days and at most
-- 1,000 attempts per account: every insert deletes a bounded batch beyond either limit (the
-- account module's security-repo.ts), so the table never grows without bound even when someone
-- keeps trying a locked account's password.
CREATE TABLE login_history (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES app_user (id),
  created_at timestamptz NOT NULL,
  result text NOT NULL
    CHECK (result IN ('success', 'wrongPassword', 'locked', 'disabled', 'twoFactorFailed')),
  ip text CHECK (length(ip) <= 64),
  user_agent text CHECK (length(user_agent) <= 512),
  -- The session a successful sign-in opened.
  session_id bigint REFERENCES user_session (id)
);
CREATE INDEX login_history_user_idx ON login_history (user_id, id DESC);
CREATE INDEX login_history_time_idx ON login_history (created_at);

-- The anti-phishing code: a phrase the user chose, shown in every email the platform sends them,
-- so a message without it (or with another) is not ours.
ALTER TABLE app_user
  ADD COLUMN anti_phishing_code text CHECK (length(anti_phishing_code) BETWEEN 4 AND 20),
  ADD COLUMN anti_phishing_changed_at timestamptz;
