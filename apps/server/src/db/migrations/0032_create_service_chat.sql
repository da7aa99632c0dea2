-- Customer service (issue 21): a live chat between a user, or a signed-out visitor, and the
-- support operators. One conversation per person (a user, or a visitor until they sign in and it
-- is linked to their account); messages are text or one re-encoded image; each side's read
-- position gives the read receipts. Canned replies per language and the external lines the
-- service page lists are set in the console.

-- Signed-out visitors: a token the server issued, kept as its SHA-256 hash only.
CREATE TABLE service_visitor (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL
);

CREATE TABLE service_conversation (
  id bigserial PRIMARY KEY,
  user_id bigint UNIQUE REFERENCES app_user (id),
  visitor_id bigint UNIQUE REFERENCES service_visitor (id),
  -- The person's language (the app's, at their last message): it picks the canned replies.
  language text NOT NULL,
  closed boolean NOT NULL DEFAULT false,
  operator_id bigint REFERENCES operator (id),
  last_message_id bigint,
  last_sender text CHECK (last_sender IN ('user', 'operator')),
  last_message_at timestamptz,
  -- The last operator message the person read, and the last of the person's the desk read.
  person_read_id bigint NOT NULL DEFAULT 0,
  desk_read_id bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  CHECK ((user_id IS NULL) <> (visitor_id IS NULL))
);
CREATE INDEX service_conversation_inbox_idx
  ON service_conversation (closed, operator_id, last_message_at DESC);

CREATE TABLE service_message (
  id bigserial PRIMARY KEY,
  conversation_id bigint NOT NULL REFERENCES service_conversation (id),
  sender text NOT NULL CHECK (sender IN ('user', 'operator')),
  operator_id bigint REFERENCES operator (id),
  content text CHECK (length(content) <= 2000),
  -- An image message: the re-encoded JPEG (never the bytes as received).
  image_mime text CHECK (image_mime = 'image/jpeg'),
  image_width integer CHECK (image_width > 0),
  image_height integer CHECK (image_height > 0),
  image_sha256 text,
  image_data bytea,
  -- Who sent it under which request id ('user:<id>', 'visitor:<id>', 'operator:<id>'): a retry
  -- answers the first message.
  request_scope text NOT NULL,
  request_id text NOT NULL,
  request_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (request_scope, request_id),
  CHECK ((content IS NULL) <> (image_data IS NULL)),
  CHECK ((sender = 'operator') = (operator_id IS NOT NULL))
);
CREATE INDEX service_message_conversation_idx ON service_message (conversation_id, id DESC);

CREATE TABLE service_canned_reply (
  id bigserial PRIMARY KEY,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 64),
  language text NOT NULL,
  content text NOT NULL CHECK (length(content) BETWEEN 1 AND 2000),
  updated_at timestamptz NOT NULL
);

CREATE TABLE service_line (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('web', 'telegram', 'whatsapp')),
  label text NOT NULL CHECK (length(label) BETWEEN 1 AND 64),
  url text NOT NULL CHECK (url LIKE 'https://%' AND length(url) <= 512),
  sort integer NOT NULL DEFAULT 0,
  enabled boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL
);
