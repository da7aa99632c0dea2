-- ledger_post checked an entry's postings pairwise: fine for the two to five postings of a
-- transfer, but a batch settlement's entry with two postings per user (2,001 for 1,000 users)
-- took seconds. Entries of more than 16 postings are now checked with set operations; the
-- function is otherwise unchanged (see 0003).

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

  -- Resolve and lock the accounts (in id order), creating those used for the first time.
  FOR attempt IN 1 .. 2 LOOP
    SELECT array_agg(l.id ORDER BY l.ord) INTO v_ids FROM (
      SELECT a.id, d.ord
      FROM unnest(p_owner_types, p_owner_ids, p_currency_ids, p_kinds) WITH ORDINALITY AS d (owner_type, owner_id, currency_id, kind, ord)
      JOIN ledger_account a
        ON a.book = p_book AND a.owner_type = d.owner_type AND a.owner_id = d.owner_id
       AND a.currency_id = d.currency_id AND a.kind = d.kind
      ORDER BY a.id
      FOR UPDATE OF a
    ) l;
    EXIT WHEN coalesce(array_length(v_ids, 1), 0) = v_size;
    INSERT INTO ledger_account (book, owner_type, owner_id, currency_id, kind, allow_negative)
    SELECT DISTINCT p_book, d.owner_type, d.owner_id, d.currency_id, d.kind, d.owner_type = 'platform'
    FROM unnest(p_owner_types, p_owner_ids, p_currency_ids, p_kinds) AS d (owner_type, owner_id, currency_id, kind)
    ON CONFLICT (book, owner_type, owner_id, currency_id, kind) DO NOTHING;
  END LOOP;

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
