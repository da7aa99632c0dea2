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
CREATE FUNCTION contract_open_many(
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
  r contract_position;
  s integer;
  e integer;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_orders, 1), 0) LOOP
    s := p_starts[i];
    e := p_ends[i];
    IF s IS NULL THEN
      SELECT * INTO STRICT r FROM contract_open(p_orders[i], p_prefixes[i], p_holds[i], p_entry_types[i],
        NULL, NULL, NULL, NULL, NULL);
    ELSE
      SELECT * INTO STRICT r FROM contract_open(p_orders[i], p_prefixes[i], p_holds[i], p_entry_types[i],
        p_owner_types[s:e], p_owner_ids[s:e], p_currency_ids[s:e], p_kinds[s:e], p_amounts[s:e]);
    END IF;
    RETURN NEXT r;
  END LOOP;
END
$$;
