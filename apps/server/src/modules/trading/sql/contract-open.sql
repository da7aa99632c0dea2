-- after migration 0011
--
-- Contract opens in one statement: their single current definition. The server applies this file
-- after the migrations whenever its checksum changes (db/migrate.ts, ADR 0007).
--
-- Opening a contract took five round trips to PostgreSQL (BEGIN, the user's lock, the insert,
-- ledger_post, COMMIT); on a 2-core machine the socket writes and wake-ups of those trips cost
-- more than the work itself. contract_open does the same steps in one statement (its own
-- transaction).

-- Stores a new contract position (p_order: its columns as JSON, without id and order number) and
-- moves its money, after taking the user's lock (one order of theirs at a time) and checking the
-- product's halt as the database has it. A market entry posts p_* (margin and fee) as one entry;
-- a resting limit entry freezes p_hold_amount instead. Refusals: BR404 (product unknown or
-- hidden), BR422 (halted), BR409 (the user already has an order with this request id: the
-- caller reads it and compares its request hash).
CREATE OR REPLACE FUNCTION contract_open(
  p_order jsonb,
  p_order_prefix text,
  p_hold_amount numeric,
  p_entry_type text,
  p_owner_types text[],
  p_owner_ids bigint[],
  p_currency_ids integer[],
  p_kinds text[],
  p_amounts numeric[]
) RETURNS SETOF contract_position
LANGUAGE plpgsql AS $$
DECLARE
  r contract_position;
  v_lock smallint;
  v_visible smallint;
BEGIN
  r := jsonb_populate_record(NULL::contract_position, p_order);
  SELECT p.is_lock, p.is_visible INTO v_lock, v_visible
  FROM app_user u CROSS JOIN product p
  WHERE u.id = r.user_id AND p.id = r.product_id
  FOR UPDATE OF u;
  IF v_visible IS DISTINCT FROM 1 THEN
    RAISE EXCEPTION USING ERRCODE = 'BR404', MESSAGE = 'hint_productUnknown';
  END IF;
  IF v_lock = 1 THEN
    RAISE EXCEPTION USING ERRCODE = 'BR422', MESSAGE = 'hint_productHalted';
  END IF;
  r.id := nextval('contract_position_id_seq');
  r.order_no := p_order_prefix || lpad(r.id::text, greatest(8, length(r.id::text)), '0');
  IF p_hold_amount IS NOT NULL THEN
    SELECT h.id INTO r.hold_id
    FROM ledger_hold(r.book, r.user_id, r.currency_id, p_hold_amount, p_entry_type, 'contract',
           r.id::text, NULL, NULL) h;
  END IF;
  INSERT INTO contract_position VALUES (r.*) ON CONFLICT (user_id, request_id) DO NOTHING;
  IF NOT FOUND THEN
    -- Undoes the hold above too: the statement fails as a whole.
    RAISE EXCEPTION USING ERRCODE = 'BR409', MESSAGE = 'hint_requestIdReused';
  END IF;
  IF p_amounts IS NOT NULL THEN
    -- Last, so the fee account (every order's) stays locked for as short a time as possible.
    PERFORM ledger_post(r.book, 'user:' || r.user_id, NULL, NULL, p_entry_type, 'contract',
      r.id::text, NULL, p_owner_types, p_owner_ids, p_currency_ids, p_kinds, p_amounts);
  END IF;
  RETURN NEXT r;
END
$$;

-- Contract opens of requests that arrive together go to the database as one statement: one round
-- trip, one transaction and one commit for all of them. A CPU profile of the market-order
-- benchmark showed the server spending 43 % of its time in socket writes (each one wakes the
-- process at the other end); per order, the round trip to PostgreSQL was the larger half.
--
-- Order i has contract_open's arguments at index i of p_orders, p_prefixes, p_holds and
-- p_entry_types; its postings are elements p_starts[i] .. p_ends[i] of the posting arrays (both
-- NULL for a resting entry, which freezes p_holds[i] instead). The positions come back in the
-- order given. Any refusal fails the whole statement, so nothing of the group is written; the
-- caller then opens each order on its own to give each its own answer.
--
-- Contract opens of one group (migration 0015) ran contract_open once per order: per order a
-- lock, an insert of the position and a call of ledger_post with its five statements. A profile
-- of PostgreSQL under the market-order benchmark put much of its time in the set-up of each
-- statement, such as reading the 17 CHECK constraints of contract_position again for every
-- insert (pg_strtok under ExecConstraints). The group is now written set by set: the users'
-- locks in one statement, the positions in one insert, and their entries through
-- ledger_post_many (src/ledger/sql/ledger.sql) in a handful of statements whatever the group's size. What is
-- written is what contract_open wrote order by order.
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
