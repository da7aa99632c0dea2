-- Attempts are counted before the secret is checked (docs/adr/0006): `pending` is the number of
-- checks under way for the key, so that failures plus checks under way never pass the limit, on
-- one instance or several. `pending_at` is the time of the latest reservation: a count older than
-- the reservation lifetime is left over from a crash and no longer holds slots.
ALTER TABLE attempt_limit
  ADD COLUMN pending integer NOT NULL DEFAULT 0 CHECK (pending >= 0),
  ADD COLUMN pending_at timestamptz;
