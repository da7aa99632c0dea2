-- Every posting rewrites its account's row (the materialized balance). With free room left on
-- each page, PostgreSQL rewrites it in place (a heap-only tuple update) instead of adding index
-- entries for the new row version, which keeps hot accounts fast under concurrent transfers.
ALTER TABLE ledger_account SET (fillfactor = 70);
