-- after migration 0011
--
-- Contract opens in one statement: their single current definition. The server applies this file
-- after the migrations whenever its checksum changes (db/migrate.ts, ADR 0007).
--
-- Opening a contract took five round trips to PostgreSQL (BEGIN, the user's lock, the insert,
-- ledger_post, COMMIT); on a 2-core machine the socket writes and wake-ups of those trips cost
-- more than the work itself. contract_open does the same steps in one statement (its own
-- transaction).
--
-- Both functions take the position's columns as typed parameters named after them (p_<column>):
-- contract_open one value each, contract_open_many one array each, order i at index i. The
-- server calls them in named notation (contract_open(p_user_id => $1, …)), so a value can only
-- reach the parameter of its name. They took the position as JSON before (p_order jsonb, read
-- with jsonb_populate_record): those signatures go first, so a call resolves to one function.
DROP FUNCTION IF EXISTS contract_open(jsonb, text, numeric, text, text[], bigint[], integer[], text[], numeric[]);
DROP FUNCTION IF EXISTS contract_open_many(jsonb[], text[], numeric[], text[], integer[], integer[], text[], bigint[], integer[], text[], numeric[]);

-- The order number of a position: the prefix (C and the date, wallet's orderStamp) and the id,
-- zero-padded to eight digits at least.
CREATE OR REPLACE FUNCTION contract_order_no(p_prefix text, p_id bigint) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT p_prefix || lpad(p_id::text, greatest(8, length(p_id::text)), '0')
$$;

-- Stores a new contract position (its columns as p_<column>, without id, order number and hold)
-- and moves its money, after taking the user's lock (one order of theirs at a time) and checking
-- the product's halt as the database has it. A market entry posts p_owner_types … p_amounts
-- (margin and fee) as one entry; a resting limit entry freezes p_hold_amount instead. Refusals:
-- BR404 (product unknown or hidden), BR422 (halted), BR409 (the user already has an order with
-- this request id: the caller reads it and compares its request hash).
CREATE OR REPLACE FUNCTION contract_open(
  p_user_id bigint, p_book text, p_product_id integer, p_currency_id integer,
  p_direction smallint, p_leverage integer, p_order_type smallint, p_limit_price numeric,
  p_quantity numeric, p_margin numeric, p_open_fee numeric, p_maintenance_rate numeric,
  p_take_profit numeric, p_stop_loss numeric, p_liquidation_price numeric, p_status smallint,
  p_entry_price numeric, p_entry_tick_price numeric, p_entry_time bigint, p_entry_source text,
  p_entry_sequence bigint, p_request_id text, p_request_hash text, p_created_at timestamptz,
  p_opened_at timestamptz, p_tpsl_at bigint,
  -- The order number's prefix, and the hold of a resting entry or the postings of a market one.
  p_order_prefix text, p_hold_amount numeric, p_entry_type text,
  p_owner_types text[], p_owner_ids bigint[], p_currency_ids integer[], p_kinds text[], p_amounts numeric[]
) RETURNS SETOF contract_position
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
  v_hold_id bigint;
  v_lock smallint;
  v_visible smallint;
BEGIN
  SELECT p.is_lock, p.is_visible INTO v_lock, v_visible
  FROM app_user u CROSS JOIN product p
  WHERE u.id = p_user_id AND p.id = p_product_id
  FOR NO KEY UPDATE OF u;
  IF v_visible IS DISTINCT FROM 1 THEN
    RAISE EXCEPTION USING ERRCODE = 'BR404', MESSAGE = 'hint_productUnknown';
  END IF;
  IF v_lock = 1 THEN
    RAISE EXCEPTION USING ERRCODE = 'BR422', MESSAGE = 'hint_productHalted';
  END IF;
  v_id := nextval('contract_position_id_seq');
  IF p_hold_amount IS NOT NULL THEN
    SELECT h.id INTO v_hold_id
    FROM ledger_hold(p_book, p_user_id, p_currency_id, p_hold_amount, p_entry_type, 'contract',
           v_id::text, NULL, NULL) h;
  END IF;
  RETURN QUERY
    INSERT INTO contract_position (id, order_no, hold_id, user_id, book, product_id, currency_id,
      direction, leverage, order_type, limit_price, quantity, margin, open_fee, maintenance_rate,
      take_profit, stop_loss, liquidation_price, status, entry_price, entry_tick_price, entry_time,
      entry_source, entry_sequence, request_id, request_hash, created_at, opened_at, tpsl_at)
    VALUES (v_id, contract_order_no(p_order_prefix, v_id), v_hold_id, p_user_id, p_book,
      p_product_id, p_currency_id, p_direction, p_leverage, p_order_type, p_limit_price, p_quantity,
      p_margin, p_open_fee, p_maintenance_rate, p_take_profit, p_stop_loss, p_liquidation_price,
      p_status, p_entry_price, p_entry_tick_price, p_entry_time, p_entry_source, p_entry_sequence,
      p_request_id, p_request_hash, p_created_at, p_opened_at, p_tpsl_at)
    ON CONFLICT (user_id, request_id) DO NOTHING
    RETURNING *;
  IF NOT FOUND THEN
    -- Undoes the hold above too: the statement fails as a whole.
    RAISE EXCEPTION USING ERRCODE = 'BR409', MESSAGE = 'hint_requestIdReused';
  END IF;
  IF p_amounts IS NOT NULL THEN
    -- Last, so the fee account (every order's) stays locked for as short a time as possible.
    PERFORM ledger_post(p_book, 'user:' || p_user_id, NULL, NULL, p_entry_type, 'contract',
      v_id::text, NULL, p_owner_types, p_owner_ids, p_currency_ids, p_kinds, p_amounts);
  END IF;
END
$$;

-- Contract opens of requests that arrive together go to the database as one statement: one round
-- trip, one transaction and one commit for all of them. A CPU profile of the market-order
-- benchmark showed the server spending 43 % of its time in socket writes (each one wakes the
-- process at the other end); per order, the round trip to PostgreSQL was the larger half.
--
-- Order i has contract_open's per-order arguments at index i of the arrays of the same names
-- (p_user_id … p_tpsl_at, p_order_prefix, p_hold_amount, p_entry_type); its postings are elements
-- p_posting_start[i] .. p_posting_end[i] of the posting arrays (both NULL for a resting entry,
-- which freezes p_hold_amount[i] instead). The positions come back in the order given. Any
-- refusal fails the whole statement, so nothing of the group is written; the caller then opens
-- each order on its own to give each its own answer.
--
-- Contract opens of one group (migration 0015) ran contract_open once per order: per order a
-- lock, an insert of the position and a call of ledger_post with its five statements. A profile
-- of PostgreSQL under the market-order benchmark put much of its time in the set-up of each
-- statement, such as reading the 17 CHECK constraints of contract_position again for every
-- insert (pg_strtok under ExecConstraints). The group is now written set by set: the users'
-- locks in one statement, the positions in one insert, and their entries through
-- ledger_post_many (src/ledger/sql/ledger.sql) in a handful of statements whatever the group's
-- size. What is written is what contract_open writes order by order.
CREATE OR REPLACE FUNCTION contract_open_many(
  p_user_id bigint[], p_book text[], p_product_id integer[], p_currency_id integer[],
  p_direction smallint[], p_leverage integer[], p_order_type smallint[], p_limit_price numeric[],
  p_quantity numeric[], p_margin numeric[], p_open_fee numeric[], p_maintenance_rate numeric[],
  p_take_profit numeric[], p_stop_loss numeric[], p_liquidation_price numeric[], p_status smallint[],
  p_entry_price numeric[], p_entry_tick_price numeric[], p_entry_time bigint[], p_entry_source text[],
  p_entry_sequence bigint[], p_request_id text[], p_request_hash text[], p_created_at timestamptz[],
  p_opened_at timestamptz[], p_tpsl_at bigint[],
  p_order_prefix text[], p_hold_amount numeric[], p_entry_type text[],
  p_posting_start integer[], p_posting_end integer[],
  p_owner_types text[], p_owner_ids bigint[], p_currency_ids integer[], p_kinds text[], p_amounts numeric[]
) RETURNS SETOF contract_position
LANGUAGE plpgsql AS $$
DECLARE
  v_n integer := coalesce(array_length(p_user_id, 1), 0);
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
  SELECT array_agg(DISTINCT o.user_id) INTO v_users FROM unnest(p_user_id) AS o (user_id);
  SELECT count(*) INTO v_locked FROM (
    SELECT u.id FROM app_user u WHERE u.id = ANY (v_users) ORDER BY u.id FOR NO KEY UPDATE
  ) l;
  -- The products' halts as the database has them now, after the locks.
  SELECT CASE
           WHEN v_locked <> array_length(v_users, 1) OR bool_or(p.is_visible IS DISTINCT FROM 1) THEN 'BR404'
           WHEN bool_or(p.is_lock = 1) THEN 'BR422'
         END
  INTO v_problem
  FROM unnest(p_product_id) AS o (product_id) LEFT JOIN product p ON p.id = o.product_id;
  IF v_problem = 'BR404' THEN
    RAISE EXCEPTION USING ERRCODE = 'BR404', MESSAGE = 'hint_productUnknown';
  ELSIF v_problem = 'BR422' THEN
    RAISE EXCEPTION USING ERRCODE = 'BR422', MESSAGE = 'hint_productHalted';
  END IF;

  SELECT array_agg(s.id ORDER BY s.i) INTO v_ids
  FROM (SELECT i, nextval('contract_position_id_seq') AS id FROM generate_series(1, v_n) AS g (i) ORDER BY i) s;
  v_hold_ids := array_fill(NULL::bigint, ARRAY[v_n]);
  FOR i IN 1 .. v_n LOOP
    IF p_hold_amount[i] IS NOT NULL THEN
      SELECT h.id INTO v_hold_id
      FROM ledger_hold(p_book[i], p_user_id[i], p_currency_id[i], p_hold_amount[i], p_entry_type[i],
             'contract', v_ids[i]::text, NULL, NULL) h;
      v_hold_ids[i] := v_hold_id;
    END IF;
  END LOOP;

  -- The positions in the order given (ids ascend with it). A request id the user already used
  -- (or used twice in this group) inserts fewer rows: the group fails, as contract_open would.
  RETURN QUERY
    WITH inserted AS (
      INSERT INTO contract_position (id, order_no, hold_id, user_id, book, product_id, currency_id,
        direction, leverage, order_type, limit_price, quantity, margin, open_fee, maintenance_rate,
        take_profit, stop_loss, liquidation_price, status, entry_price, entry_tick_price, entry_time,
        entry_source, entry_sequence, request_id, request_hash, created_at, opened_at, tpsl_at)
      SELECT v_ids[o.i], contract_order_no(o.order_prefix, v_ids[o.i]), v_hold_ids[o.i], o.user_id,
        o.book, o.product_id, o.currency_id, o.direction, o.leverage, o.order_type, o.limit_price,
        o.quantity, o.margin, o.open_fee, o.maintenance_rate, o.take_profit, o.stop_loss,
        o.liquidation_price, o.status, o.entry_price, o.entry_tick_price, o.entry_time,
        o.entry_source, o.entry_sequence, o.request_id, o.request_hash, o.created_at, o.opened_at,
        o.tpsl_at
      FROM unnest(p_user_id, p_book, p_product_id, p_currency_id, p_direction, p_leverage,
          p_order_type, p_limit_price, p_quantity, p_margin, p_open_fee, p_maintenance_rate,
          p_take_profit, p_stop_loss, p_liquidation_price, p_status, p_entry_price,
          p_entry_tick_price, p_entry_time, p_entry_source, p_entry_sequence, p_request_id,
          p_request_hash, p_created_at, p_opened_at, p_tpsl_at, p_order_prefix)
        WITH ORDINALITY AS o (user_id, book, product_id, currency_id, direction, leverage,
          order_type, limit_price, quantity, margin, open_fee, maintenance_rate, take_profit,
          stop_loss, liquidation_price, status, entry_price, entry_tick_price, entry_time,
          entry_source, entry_sequence, request_id, request_hash, created_at, opened_at, tpsl_at,
          order_prefix, i)
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
  IF EXISTS (SELECT 1 FROM unnest(p_posting_start) AS s (start) WHERE s.start IS NOT NULL) THEN
    SELECT array_agg(x.e ORDER BY x.k) INTO v_entry_of
    FROM (
      SELECT dense_rank() OVER (ORDER BY g.i) AS e, k
      FROM generate_series(1, v_n) AS g (i)
      CROSS JOIN LATERAL generate_series(p_posting_start[g.i], p_posting_end[g.i]) AS k
      WHERE p_posting_start[g.i] IS NOT NULL
    ) x;
    PERFORM ledger_post_many(
      array_agg(o.book ORDER BY o.i),
      array_agg('user:' || o.user_id ORDER BY o.i),
      array_agg(o.entry_type ORDER BY o.i),
      array_agg('contract'::text ORDER BY o.i),
      array_agg(v_ids[o.i]::text ORDER BY o.i),
      v_entry_of, p_owner_types, p_owner_ids, p_currency_ids, p_kinds, p_amounts)
    FROM unnest(p_book, p_user_id, p_entry_type) WITH ORDINALITY AS o (book, user_id, entry_type, i)
    WHERE p_posting_start[o.i] IS NOT NULL;
  END IF;
END
$$;
