-- Attempt counters (docs/adr/0006) are short-lived state written twice by every sign-in and every
-- password check (reserve, settle): as an unlogged table they cost no WAL and no flush. The
-- table survives clean restarts of PostgreSQL and of the app (kill -9 included); only PostgreSQL's
-- crash recovery empties it, which ends the lock-outs and counts of the last 15 minutes (an hour
-- for withdrawal passwords) and nothing else. It is not copied to replicas either.
ALTER TABLE attempt_limit SET UNLOGGED;
