-- Contract opens of one group (migration 0015) ran contract_open once per order: per order a
-- lock, an insert of the position and a call of ledger_post with its five statements. A profile
-- of PostgreSQL under the market-order benchmark put much of its time in the set-up of each
-- statement, such as reading the 17 CHECK constraints of contract_position again for every
-- insert (pg_strtok under ExecConstraints). The group is now written set by set: the users'
-- locks in one statement, the positions in one insert, and their entries through
-- ledger_post_many (below) in a handful of statements whatever the group's size. What is
-- written is what contract_open wrote order by order.

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
CREATE FUNCTION ledger_post_many(
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

  -- Resolve and lock the accounts (in id order), creating those used for the first time.
  FOR attempt IN 1 .. 2 LOOP
    SELECT array_agg(l.id ORDER BY l.k) INTO v_ids FROM (
      SELECT a.id, d.k
      FROM unnest(p_entry_of, p_owner_types, p_owner_ids, p_currency_ids, p_kinds) WITH ORDINALITY
        AS d (e, owner_type, owner_id, currency_id, kind, k)
      JOIN ledger_account a
        ON a.book = p_books[d.e] AND a.owner_type = d.owner_type AND a.owner_id = d.owner_id
       AND a.currency_id = d.currency_id AND a.kind = d.kind
      ORDER BY a.id
      FOR UPDATE OF a
    ) l;
    EXIT WHEN coalesce(array_length(v_ids, 1), 0) = v_size;
    INSERT INTO ledger_account (book, owner_type, owner_id, currency_id, kind, allow_negative)
    SELECT DISTINCT p_books[d.e], d.owner_type, d.owner_id, d.currency_id, d.kind, d.owner_type = 'platform'
    FROM unnest(p_entry_of, p_owner_types, p_owner_ids, p_currency_ids, p_kinds)
      AS d (e, owner_type, owner_id, currency_id, kind)
    ON CONFLICT (book, owner_type, owner_id, currency_id, kind) DO NOTHING;
  END LOOP;
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

-- Same arguments, result and refusals as in 0015: the group's orders locked, checked, stored and
-- posted set by set. Resting limit entries still freeze their funds one by one (ledger_hold).
CREATE OR REPLACE FUNCTION contract_open_many(
  p_orders jsonb[],
  p_prefixes text[],
  p_holds numeric[],
  p_entry_types text[],
  p_starts integer[],
  p_ends integer[],
  p_owner_types text[],
  p_owner_ids bigint[],
  p_currency_ids integer[],
  p_kinds text[],
  p_amounts numeric[]
) RETURNS SETOF contract_position
LANGUAGE plpgsql AS $$
DECLARE
  v_n integer := coalesce(array_length(p_orders, 1), 0);
  v_users bigint[];
  v_locked integer;
  v_problem text;
  v_ids bigint[];
  v_hold_ids bigint[];
  v_hold_id bigint;
  v_count integer;
  v_entry_of integer[];
BEGIN
  IF v_n = 0 THEN
    RETURN;
  END IF;
  -- The users' locks (one order of a user's at a time), in id order.
  SELECT array_agg(DISTINCT (o.j ->> 'user_id')::bigint) INTO v_users FROM unnest(p_orders) AS o (j);
  SELECT count(*) INTO v_locked FROM (
    SELECT u.id FROM app_user u WHERE u.id = ANY (v_users) ORDER BY u.id FOR UPDATE
  ) l;
  -- The products' halts as the database has them now, after the locks.
  SELECT CASE
           WHEN v_locked <> array_length(v_users, 1) OR bool_or(p.is_visible IS DISTINCT FROM 1) THEN 'BR404'
           WHEN bool_or(p.is_lock = 1) THEN 'BR422'
         END
  INTO v_problem
  FROM unnest(p_orders) AS o (j) LEFT JOIN product p ON p.id = (o.j ->> 'product_id')::integer;
  IF v_problem = 'BR404' THEN
    RAISE EXCEPTION USING ERRCODE = 'BR404', MESSAGE = 'hint_productUnknown';
  ELSIF v_problem = 'BR422' THEN
    RAISE EXCEPTION USING ERRCODE = 'BR422', MESSAGE = 'hint_productHalted';
  END IF;

  SELECT array_agg(s.id ORDER BY s.i) INTO v_ids
  FROM (SELECT i, nextval('contract_position_id_seq') AS id FROM generate_series(1, v_n) AS g (i) ORDER BY i) s;
  v_hold_ids := array_fill(NULL::bigint, ARRAY[v_n]);
  FOR i IN 1 .. v_n LOOP
    IF p_holds[i] IS NOT NULL THEN
      SELECT h.id INTO v_hold_id
      FROM ledger_hold(p_orders[i] ->> 'book', (p_orders[i] ->> 'user_id')::bigint,
             (p_orders[i] ->> 'currency_id')::integer, p_holds[i], p_entry_types[i], 'contract',
             v_ids[i]::text, NULL, NULL) h;
      v_hold_ids[i] := v_hold_id;
    END IF;
  END LOOP;

  -- The positions in the order given (ids ascend with it). A request id the user already used
  -- (or used twice in this group) inserts fewer rows: the group fails, as contract_open would.
  RETURN QUERY
    WITH inserted AS (
      INSERT INTO contract_position
      SELECT r.*
      FROM unnest(p_orders, p_prefixes) WITH ORDINALITY AS o (j, prefix, i)
      CROSS JOIN LATERAL jsonb_populate_record(NULL::contract_position, o.j || jsonb_build_object(
        'id', v_ids[o.i],
        'order_no', o.prefix || lpad(v_ids[o.i]::text, greatest(8, length(v_ids[o.i]::text)), '0'),
        'hold_id', v_hold_ids[o.i])) AS r
      ORDER BY o.i
      ON CONFLICT (user_id, request_id) DO NOTHING
      RETURNING *
    )
    SELECT * FROM inserted ORDER BY id;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  IF v_count <> v_n THEN
    RAISE EXCEPTION USING ERRCODE = 'BR409', MESSAGE = 'hint_requestIdReused';
  END IF;

  -- Last, so the fee accounts stay locked for as short a time as possible: one entry per market
  -- order (margin and fee), as contract_open posts it.
  IF EXISTS (SELECT 1 FROM unnest(p_starts) AS s (start) WHERE s.start IS NOT NULL) THEN
    SELECT array_agg(x.e ORDER BY x.k) INTO v_entry_of
    FROM (
      SELECT dense_rank() OVER (ORDER BY g.i) AS e, k
      FROM generate_series(1, v_n) AS g (i)
      CROSS JOIN LATERAL generate_series(p_starts[g.i], p_ends[g.i]) AS k
      WHERE p_starts[g.i] IS NOT NULL
    ) x;
    PERFORM ledger_post_many(
      array_agg(o.j ->> 'book' ORDER BY o.i),
      array_agg('user:' || (o.j ->> 'user_id') ORDER BY o.i),
      array_agg(p_entry_types[o.i] ORDER BY o.i),
      array_agg('contract'::text ORDER BY o.i),
      array_agg(v_ids[o.i]::text ORDER BY o.i),
      v_entry_of, p_owner_types, p_owner_ids, p_currency_ids, p_kinds, p_amounts)
    FROM unnest(p_orders) WITH ORDINALITY AS o (j, i)
    WHERE p_starts[o.i] IS NOT NULL;
  END IF;
END
$$;
