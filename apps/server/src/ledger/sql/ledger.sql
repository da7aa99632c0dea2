-- after migration 0003
--
-- The ledger's functions and triggers: their single current definition. The server applies this
-- file after the migrations whenever its checksum changes (db/migrate.ts, ADR 0007); it is applied
-- right after migration 0003 on a new database, so later data migrations can post through it.

-- Entries, postings and accounts are append-only: no change, no deletion.
CREATE OR REPLACE FUNCTION ledger_forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'LG009', MESSAGE = 'ledger entries and postings are append-only';
END
$$;
CREATE OR REPLACE TRIGGER ledger_entry_append_only BEFORE UPDATE OR DELETE ON ledger_entry
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE OR REPLACE TRIGGER ledger_posting_append_only BEFORE UPDATE OR DELETE ON ledger_posting
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE OR REPLACE TRIGGER ledger_account_never_deleted BEFORE DELETE ON ledger_account
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();

-- The accounts of postings (posting k: p_books[k], p_owner_types[k], …), resolved and locked in
-- id order, those used for the first time created; in posting order. Fewer ids than postings
-- when one could not be resolved: the caller refuses the entry. ledger_post and
-- ledger_post_many both lock their accounts here.
CREATE OR REPLACE FUNCTION ledger_lock_accounts(
  p_books text[],
  p_owner_types text[],
  p_owner_ids bigint[],
  p_currency_ids integer[],
  p_kinds text[]
) RETURNS bigint[]
LANGUAGE plpgsql AS $$
DECLARE
  v_size integer := coalesce(array_length(p_owner_types, 1), 0);
  v_ids bigint[];
BEGIN
  FOR attempt IN 1 .. 2 LOOP
    SELECT array_agg(l.id ORDER BY l.k) INTO v_ids FROM (
      SELECT a.id, d.k
      FROM unnest(p_books, p_owner_types, p_owner_ids, p_currency_ids, p_kinds) WITH ORDINALITY
        AS d (book, owner_type, owner_id, currency_id, kind, k)
      JOIN ledger_account a
        ON a.book = d.book AND a.owner_type = d.owner_type AND a.owner_id = d.owner_id
       AND a.currency_id = d.currency_id AND a.kind = d.kind
      ORDER BY a.id
      FOR UPDATE OF a
    ) l;
    EXIT WHEN coalesce(array_length(v_ids, 1), 0) = v_size;
    INSERT INTO ledger_account (book, owner_type, owner_id, currency_id, kind, allow_negative)
    SELECT DISTINCT d.book, d.owner_type, d.owner_id, d.currency_id, d.kind, d.owner_type = 'platform'
    FROM unnest(p_books, p_owner_types, p_owner_ids, p_currency_ids, p_kinds)
      AS d (book, owner_type, owner_id, currency_id, kind)
    ON CONFLICT (book, owner_type, owner_id, currency_id, kind) DO NOTHING;
  END LOOP;
  RETURN v_ids;
END
$$;

-- Posts one balanced entry in a single round trip.
--
-- Accounts are named by (owner type, owner id, currency, kind) and created on first use.
-- They are locked in id order, so concurrent entries over the same accounts queue up instead of
-- deadlocking. A user balance that would go negative violates ledger_account_not_negative.
-- Error codes: LG001 malformed entry (a bug: unbalanced, zero amount, repeated account),
-- LG003 request id reused with a different request, 23514 on ledger_account_not_negative
-- insufficient funds. A repeated request id with the same request returns the first entry's
-- postings with duplicate = true.
--
-- An entry of more than 16 postings is checked with set operations (a batch settlement's entry
-- has two postings per user: 2,001 for 1,000 users); smaller ones pairwise.
CREATE OR REPLACE FUNCTION ledger_post(
  p_book text,
  p_scope text,
  p_request_id text,
  p_request_hash text,
  p_entry_type text,
  p_ref_type text,
  p_ref_id text,
  p_memo text,
  p_owner_types text[],
  p_owner_ids bigint[],
  p_currency_ids integer[],
  p_kinds text[],
  p_amounts numeric[]
) RETURNS TABLE (
  entry_id bigint,
  duplicate boolean,
  account_id bigint,
  owner_type text,
  owner_id bigint,
  currency_id integer,
  kind text,
  amount numeric,
  balance_after numeric
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_entry_id bigint;
  v_hash text;
  v_size integer := coalesce(array_length(p_amounts, 1), 0);
  v_ids bigint[];
  v_balances numeric[];
  v_total numeric;
BEGIN
  IF v_size < 2
     OR coalesce(array_length(p_owner_types, 1), 0) <> v_size
     OR coalesce(array_length(p_owner_ids, 1), 0) <> v_size
     OR coalesce(array_length(p_currency_ids, 1), 0) <> v_size
     OR coalesce(array_length(p_kinds, 1), 0) <> v_size THEN
    RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: an entry needs two or more postings';
  END IF;
  IF v_size <= 16 THEN
    -- Small entries (nearly all): checked with plain expressions, no SQL statement: every amount
    -- non-zero, no account twice, every currency balancing to zero.
    FOR i IN 1 .. v_size LOOP
      IF p_amounts[i] IS NULL OR p_amounts[i] = 0 THEN
        RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: a posting amount is zero or missing';
      END IF;
      v_total := 0;
      FOR j IN 1 .. v_size LOOP
        IF p_currency_ids[j] = p_currency_ids[i] THEN
          v_total := v_total + p_amounts[j];
          IF j > i AND p_owner_types[j] = p_owner_types[i] AND p_owner_ids[j] = p_owner_ids[i] AND p_kinds[j] = p_kinds[i] THEN
            RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: an account appears twice in one entry';
          END IF;
        END IF;
      END LOOP;
      IF v_total <> 0 THEN
        RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: the entry does not balance per currency';
      END IF;
    END LOOP;
  ELSE
    -- Large entries (batch settlements): the same checks as set operations, linear rather than
    -- pairwise.
    IF EXISTS (SELECT 1 FROM unnest(p_amounts) AS a (amount) WHERE a.amount IS NULL OR a.amount = 0) THEN
      RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: a posting amount is zero or missing';
    END IF;
    IF (SELECT count(*) FROM (
          SELECT DISTINCT d.owner_type, d.owner_id, d.currency_id, d.kind
          FROM unnest(p_owner_types, p_owner_ids, p_currency_ids, p_kinds) AS d (owner_type, owner_id, currency_id, kind)
        ) s) <> v_size THEN
      RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: an account appears twice in one entry';
    END IF;
    IF EXISTS (
      SELECT 1 FROM unnest(p_currency_ids, p_amounts) AS d (currency_id, amount)
      GROUP BY d.currency_id HAVING sum(d.amount) <> 0
    ) THEN
      RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: the entry does not balance per currency';
    END IF;
  END IF;

  IF p_request_id IS NULL THEN
    INSERT INTO ledger_entry (book, scope, request_id, request_hash, entry_type, ref_type, ref_id, memo)
    VALUES (p_book, p_scope, NULL, p_request_hash, p_entry_type, p_ref_type, p_ref_id, p_memo)
    RETURNING id INTO v_entry_id;
  ELSE
    INSERT INTO ledger_entry (book, scope, request_id, request_hash, entry_type, ref_type, ref_id, memo)
    VALUES (p_book, p_scope, p_request_id, p_request_hash, p_entry_type, p_ref_type, p_ref_id, p_memo)
    ON CONFLICT (scope, request_id) WHERE request_id IS NOT NULL DO NOTHING
    RETURNING id INTO v_entry_id;
    IF v_entry_id IS NULL THEN
      SELECT e.id, e.request_hash INTO v_entry_id, v_hash
        FROM ledger_entry e WHERE e.scope = p_scope AND e.request_id = p_request_id;
      IF v_hash IS DISTINCT FROM p_request_hash THEN
        RAISE EXCEPTION USING ERRCODE = 'LG003', MESSAGE = 'hint_requestIdReused';
      END IF;
      RETURN QUERY
        SELECT p.entry_id, true, p.account_id, a.owner_type, a.owner_id, a.currency_id, a.kind, p.amount, p.balance_after
        FROM ledger_posting p JOIN ledger_account a ON a.id = p.account_id
        WHERE p.entry_id = v_entry_id ORDER BY p.line;
      RETURN;
    END IF;
  END IF;

  v_ids := ledger_lock_accounts(array_fill(p_book, ARRAY[v_size]), p_owner_types, p_owner_ids,
    p_currency_ids, p_kinds);

  -- Apply the postings; the not-negative check refuses an overdraft here.
  WITH updated AS (
    UPDATE ledger_account a SET balance = a.balance + d.amount
    FROM unnest(v_ids, p_amounts) AS d (id, amount)
    WHERE a.id = d.id
    RETURNING a.id, a.balance
  )
  SELECT array_agg(u.balance ORDER BY d.ord) INTO v_balances
  FROM unnest(v_ids) WITH ORDINALITY AS d (id, ord) JOIN updated u ON u.id = d.id;
  IF coalesce(array_length(v_balances, 1), 0) <> v_size THEN
    RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: an account of the entry could not be resolved';
  END IF;

  INSERT INTO ledger_posting (entry_id, line, account_id, amount, balance_after)
  SELECT v_entry_id, d.line, d.id, d.amount, d.balance
  FROM unnest(v_ids, p_amounts, v_balances) WITH ORDINALITY AS d (id, amount, balance, line);

  RETURN QUERY
    SELECT v_entry_id, false, d.id, d.owner_type, d.owner_id, d.currency_id, d.kind, d.amount, d.balance
    FROM unnest(v_ids, p_owner_types, p_owner_ids, p_currency_ids, p_kinds, p_amounts, v_balances)
         AS d (id, owner_type, owner_id, currency_id, kind, amount, balance);
END
$$;

-- Freezes funds (available -> frozen) with one journal entry and records the pending hold. A
-- repeated request id answers with the first hold (duplicate = true).
CREATE OR REPLACE FUNCTION ledger_hold(
  p_book text,
  p_user_id bigint,
  p_currency_id integer,
  p_amount numeric,
  p_hold_type text,
  p_ref_type text,
  p_ref_id text,
  p_request_id text,
  p_request_hash text
) RETURNS TABLE (
  id bigint,
  book text,
  user_id bigint,
  currency_id integer,
  amount numeric,
  remaining numeric,
  status text,
  hold_type text,
  ref_type text,
  ref_id text,
  duplicate boolean
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_entry_id bigint;
  v_duplicate boolean;
BEGIN
  SELECT p.entry_id, p.duplicate INTO v_entry_id, v_duplicate
  FROM ledger_post(p_book, 'user:' || p_user_id, p_request_id, p_request_hash, 'hold:' || p_hold_type,
         p_ref_type, p_ref_id, NULL,
         ARRAY['user', 'user'], ARRAY[p_user_id, p_user_id], ARRAY[p_currency_id, p_currency_id],
         ARRAY['available', 'frozen'], ARRAY[-p_amount, p_amount]) p
  LIMIT 1;
  IF NOT v_duplicate THEN
    INSERT INTO ledger_hold (book, user_id, currency_id, amount, remaining, status, hold_entry_id, hold_type, ref_type, ref_id)
    VALUES (p_book, p_user_id, p_currency_id, p_amount, p_amount, 'pending', v_entry_id, p_hold_type, p_ref_type, p_ref_id);
  END IF;
  RETURN QUERY
    SELECT h.id, h.book, h.user_id, h.currency_id, h.amount, h.remaining, h.status, h.hold_type,
           h.ref_type, h.ref_id, v_duplicate
    FROM ledger_hold h WHERE h.hold_entry_id = v_entry_id;
END
$$;

-- Posts several entries in the caller's transaction, as ledger_post would one after another
-- (same checks, same balances after each posting), with a fixed number of statements.
--
-- Entry i has p_books[i], p_scopes[i], p_entry_types[i], p_ref_types[i], p_ref_ids[i]; posting k
-- belongs to entry p_entry_of[k], entries' postings one entry after another in entry order.
-- Every entry needs two or more postings, no account twice in one entry, every amount non-zero
-- and every currency balancing to zero per entry (LG001 otherwise). Entries here carry no
-- request id: the caller's own rows make the request idempotent. A user balance that any posting
-- would take below zero refuses the whole call, as the CHECK constraint refuses ledger_post
-- (23514, ledger_account_not_negative), even when a later posting of the call would cover it.
-- Returns the new entries' ids in entry order.
CREATE OR REPLACE FUNCTION ledger_post_many(
  p_books text[],
  p_scopes text[],
  p_entry_types text[],
  p_ref_types text[],
  p_ref_ids text[],
  p_entry_of integer[],
  p_owner_types text[],
  p_owner_ids bigint[],
  p_currency_ids integer[],
  p_kinds text[],
  p_amounts numeric[]
) RETURNS bigint[]
LANGUAGE plpgsql AS $$
DECLARE
  v_entries integer := coalesce(array_length(p_books, 1), 0);
  v_size integer := coalesce(array_length(p_amounts, 1), 0);
  v_entry_ids bigint[];
  v_ids bigint[];
  v_balances numeric[];
  v_overdrawn boolean;
BEGIN
  IF v_entries = 0 AND v_size = 0 THEN
    RETURN '{}';
  END IF;
  IF coalesce(array_length(p_scopes, 1), 0) <> v_entries
     OR coalesce(array_length(p_entry_types, 1), 0) <> v_entries
     OR coalesce(array_length(p_ref_types, 1), 0) <> v_entries
     OR coalesce(array_length(p_ref_ids, 1), 0) <> v_entries
     OR coalesce(array_length(p_entry_of, 1), 0) <> v_size
     OR coalesce(array_length(p_owner_types, 1), 0) <> v_size
     OR coalesce(array_length(p_owner_ids, 1), 0) <> v_size
     OR coalesce(array_length(p_currency_ids, 1), 0) <> v_size
     OR coalesce(array_length(p_kinds, 1), 0) <> v_size THEN
    RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: entry and posting arrays differ in length';
  END IF;
  -- Postings grouped by entry in entry order, each entry with two or more.
  IF EXISTS (
       SELECT 1 FROM (
         SELECT d.e, lag(d.e) OVER (ORDER BY d.k) AS before
         FROM unnest(p_entry_of) WITH ORDINALITY AS d (e, k)
       ) s
       WHERE s.e IS NULL OR s.e < 1 OR s.e > v_entries OR s.e < s.before
     )
     OR (SELECT count(*) FROM (
           SELECT d.e FROM unnest(p_entry_of) AS d (e) GROUP BY d.e HAVING count(*) >= 2
         ) s) <> v_entries THEN
    RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: an entry needs two or more postings';
  END IF;
  IF EXISTS (SELECT 1 FROM unnest(p_amounts) AS a (amount) WHERE a.amount IS NULL OR a.amount = 0) THEN
    RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: a posting amount is zero or missing';
  END IF;
  IF (SELECT count(*) FROM (
        SELECT DISTINCT d.e, d.owner_type, d.owner_id, d.currency_id, d.kind
        FROM unnest(p_entry_of, p_owner_types, p_owner_ids, p_currency_ids, p_kinds)
          AS d (e, owner_type, owner_id, currency_id, kind)
      ) s) <> v_size THEN
    RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: an account appears twice in one entry';
  END IF;
  IF EXISTS (
    SELECT 1 FROM unnest(p_entry_of, p_currency_ids, p_amounts) AS d (e, currency_id, amount)
    GROUP BY d.e, d.currency_id HAVING sum(d.amount) <> 0
  ) THEN
    RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: the entry does not balance per currency';
  END IF;

  -- Ids in entry order, so the entries read back in the order they were posted.
  SELECT array_agg(s.id ORDER BY s.i) INTO v_entry_ids
  FROM (SELECT i, nextval('ledger_entry_id_seq') AS id FROM generate_series(1, v_entries) AS g (i) ORDER BY i) s;
  INSERT INTO ledger_entry (id, book, scope, request_id, request_hash, entry_type, ref_type, ref_id, memo)
  SELECT v_entry_ids[g.i], p_books[g.i], p_scopes[g.i], NULL, NULL, p_entry_types[g.i], p_ref_types[g.i],
         p_ref_ids[g.i], NULL
  FROM generate_series(1, v_entries) AS g (i);

  v_ids := ledger_lock_accounts(
    ARRAY(SELECT p_books[e.e] FROM unnest(p_entry_of) WITH ORDINALITY AS e (e, k) ORDER BY e.k),
    p_owner_types, p_owner_ids, p_currency_ids, p_kinds);
  IF coalesce(array_length(v_ids, 1), 0) <> v_size THEN
    RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: an account of the entry could not be resolved';
  END IF;

  -- Each account once, by the sum of its postings; the balance after each posting is the balance
  -- before the call plus its postings so far, in posting order.
  WITH d AS (
    SELECT u.id, u.amount, u.k FROM unnest(v_ids, p_amounts) WITH ORDINALITY AS u (id, amount, k)
  ), totals AS (
    SELECT d.id, sum(d.amount) AS total FROM d GROUP BY d.id
  ), updated AS (
    UPDATE ledger_account a SET balance = a.balance + t.total
    FROM totals t
    WHERE a.id = t.id
    RETURNING a.id, a.balance - t.total AS before, a.allow_negative
  ), running AS (
    SELECT d.k, u.before + sum(d.amount) OVER (PARTITION BY d.id ORDER BY d.k) AS after, u.allow_negative
    FROM d JOIN updated u ON u.id = d.id
  )
  SELECT array_agg(r.after ORDER BY r.k), coalesce(bool_or(r.after < 0 AND NOT r.allow_negative), false)
  INTO v_balances, v_overdrawn
  FROM running r;
  IF v_overdrawn THEN
    RAISE EXCEPTION USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_account_not_negative',
      MESSAGE = 'ledger: a posting would take a user balance below zero';
  END IF;

  INSERT INTO ledger_posting (entry_id, line, account_id, amount, balance_after)
  SELECT v_entry_ids[d.e], row_number() OVER (PARTITION BY d.e ORDER BY d.k), d.id, d.amount, d.balance
  FROM unnest(p_entry_of, v_ids, p_amounts, v_balances) WITH ORDINALITY AS d (e, id, amount, balance, k);

  RETURN v_entry_ids;
END
$$;
