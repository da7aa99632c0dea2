-- A user's avatar: the square JPEG the server re-encoded from the upload (never the uploaded
-- bytes), kept in the database rather than the web root, one row per user. app_user.avatar holds
-- the URL it is served at, which names the image's hash, so a changed avatar is a new URL and an
-- old one can be cached for good.
CREATE TABLE user_avatar (
  user_id bigint PRIMARY KEY REFERENCES app_user (id),
  mime text NOT NULL CHECK (mime = 'image/jpeg'),
  width integer NOT NULL CHECK (width BETWEEN 1 AND 512),
  height integer NOT NULL CHECK (height = width),
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  data bytea NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The withdrawal address whitelist: when on, withdrawals go only to saved cards and addresses
-- whose details were last set 24 hours ago or more. Turning it off (whitelist_off_at) holds
-- withdrawals for 24 hours, as a password change does.
ALTER TABLE app_user
  ADD COLUMN withdraw_whitelist boolean NOT NULL DEFAULT false,
  ADD COLUMN whitelist_off_at timestamptz;

-- Resets of a user's demo account to its starting funds: at most one a day per user, each kept
-- with what it did (the journal entry, if the balance needed one). The request id makes a retry
-- answer the first reset.
CREATE TABLE demo_reset (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES app_user (id),
  request_id text NOT NULL CHECK (length(request_id) BETWEEN 1 AND 64),
  reset_at timestamptz NOT NULL,
  balance_before numeric NOT NULL,
  positions_closed integer NOT NULL CHECK (positions_closed >= 0),
  orders_cancelled integer NOT NULL CHECK (orders_cancelled >= 0),
  entry_id bigint,
  UNIQUE (user_id, request_id)
);
CREATE INDEX demo_reset_user_idx ON demo_reset (user_id, reset_at DESC);
