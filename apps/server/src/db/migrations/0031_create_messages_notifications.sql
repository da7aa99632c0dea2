-- Site messages and notifications (issue 21).
--
-- Types of site messages: the app's message list has a tab for each enabled one. A type's name is
-- the operator's text per language (English the fallback) or, for the seeded types, a key of the
-- locale files (name_key), so they read in every language from the start.
CREATE TABLE site_message_type (
  id serial PRIMARY KEY,
  name jsonb NOT NULL DEFAULT '{}',
  name_key text,
  sort integer NOT NULL DEFAULT 0,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO site_message_type (id, name_key, sort) VALUES
  (1, 'msgType_system', 1),
  (2, 'msgType_announcement', 2),
  (3, 'msgType_activity', 3);
SELECT setval('site_message_type_id_seq', 3);

-- A message has a type (the existing ones, the welcome messages, are system messages), a time it
-- is published (NULL: when it was written; users see it only from then on), the operator who wrote
-- it (NULL: the platform) and when it was withdrawn (nobody reads it after).
ALTER TABLE site_message
  ADD COLUMN type_id integer NOT NULL DEFAULT 1 REFERENCES site_message_type (id),
  ADD COLUMN publish_at timestamptz,
  ADD COLUMN created_by bigint,
  ADD COLUMN withdrawn_at timestamptz;
-- Announcements by the time users see them (a user's list and count read those since they joined).
CREATE INDEX site_message_broadcast_idx ON site_message ((coalesce(publish_at, created_at)))
  WHERE user_id IS NULL;
CREATE INDEX site_message_read_message_idx ON site_message_read (message_id);

-- Notifications of a user's own events, written once by the event (in its transaction where it has
-- one): `ref` names the event (its object and what happened), unique per user, so an event seen
-- twice (a replayed tick, a retried request) writes one row. `params` are the {0}, {1}… of the
-- locale files' text notify_<type>; `link_route` and `link_query` the app's screen of its object.
CREATE TABLE user_notification (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES app_user (id),
  type text NOT NULL CHECK (type ~ '^[a-zA-Z]{1,40}$'),
  ref text NOT NULL CHECK (length(ref) <= 120),
  params jsonb NOT NULL DEFAULT '[]',
  link_route text,
  link_query jsonb,
  created_at timestamptz NOT NULL,
  read_at timestamptz
);
CREATE UNIQUE INDEX user_notification_ref_idx ON user_notification (user_id, ref);
CREATE INDEX user_notification_user_idx ON user_notification (user_id, id DESC);
CREATE INDEX user_notification_unread_idx ON user_notification (user_id) WHERE read_at IS NULL;
