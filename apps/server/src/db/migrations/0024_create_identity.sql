-- Identity verification in two levels: 0 basic (name and document number), 1 advanced (the
-- document's images). A user's request is reviewed by an operator: status 0 under review,
-- 1 approved, 2 rejected (with the reason the user reads). At most one request of a level is under
-- review at a time, and none once the level is approved.
CREATE TABLE user_auth_record (
  id bigserial PRIMARY KEY,
  order_no text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES app_user (id),
  auth_level smallint NOT NULL CHECK (auth_level IN (0, 1)),
  real_name text NOT NULL CHECK (length(real_name) BETWEEN 1 AND 64),
  -- 0 identity card, 1 driving licence, 2 passport.
  id_type smallint NOT NULL CHECK (id_type IN (0, 1, 2)),
  id_number text NOT NULL CHECK (length(id_number) BETWEEN 5 AND 32),
  phone text CHECK (length(phone) <= 20),
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
  reject_reason text CHECK (length(reject_reason) <= 500),
  request_id text NOT NULL,
  request_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  reviewed_at timestamptz,
  reviewed_by bigint,
  UNIQUE (user_id, request_id),
  CHECK ((status = 0) = (reviewed_at IS NULL)),
  CHECK (status <> 2 OR reject_reason IS NOT NULL)
);
CREATE INDEX user_auth_record_user_idx ON user_auth_record (user_id, auth_level, id DESC);
CREATE INDEX user_auth_record_status_idx ON user_auth_record (status, id);
CREATE UNIQUE INDEX user_auth_record_open_key ON user_auth_record (user_id, auth_level)
  WHERE status IN (0, 1);

-- The document images of an advanced request: re-encoded JPEG bytes, outside the web root, read
-- only by their owner and by support operators through the console (each view audited).
CREATE TABLE user_auth_document (
  record_id bigint NOT NULL REFERENCES user_auth_record (id),
  side text NOT NULL CHECK (side IN ('front', 'back', 'hold')),
  mime text NOT NULL CHECK (mime = 'image/jpeg'),
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  sha256 text NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (record_id, side)
);

-- The highest level approved (-1: none), beside `auth_status` (the basic level's state).
ALTER TABLE app_user ADD COLUMN auth_level smallint NOT NULL DEFAULT -1
  CHECK (auth_level IN (-1, 0, 1));

-- Which features need which verified level (-1: none), set in the console and shown to users
-- before they try.
CREATE TABLE identity_requirement (
  feature text PRIMARY KEY CHECK (feature IN ('withdraw', 'loan', 'newShares', 'copyLeader')),
  min_level smallint NOT NULL CHECK (min_level IN (-1, 0, 1))
);
INSERT INTO identity_requirement (feature, min_level) VALUES
  ('withdraw', -1), ('loan', 0), ('newShares', 0), ('copyLeader', 1);
