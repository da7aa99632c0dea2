-- Opening a contract took five round trips to PostgreSQL (BEGIN, the user's lock, the insert,
-- ledger_post, COMMIT); on a 2-core machine the socket writes and wake-ups of those trips cost
-- more than the work itself. contract_open does the same steps in one statement (its own
-- transaction), and ledger_hold freezes funds in one call instead of two.

-- Freezes funds (available -> frozen) with one journal entry and records the pending hold. A
-- repeated request id answers with the first hold (duplicate = true).
CREATE FUNCTION ledger_hold(
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

-- Stores a new contract position (p_order: its columns as JSON, without id and order number) and
-- moves its money, after taking the user's lock (one order of theirs at a time) and checking the
-- product's halt as the database has it. A market entry posts p_* (margin and fee) as one entry;
-- a resting limit entry freezes p_hold_amount instead. Refusals: BR404 (product unknown or
-- hidden), BR422 (halted), BR409 (the user already has an order with this request id: the
-- caller reads it and compares its request hash).
CREATE FUNCTION contract_open(
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
