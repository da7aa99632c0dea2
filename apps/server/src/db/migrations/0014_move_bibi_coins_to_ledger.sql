-- Coin to coin moves coins (PRODUCT section 6): the coins bought live in the wallet, as ledger
-- balances of the coin's currency, instead of in the holding table (which keeps only the cost of
-- what coin to coin bought, for the average cost). A pair trades coin to coin only when its coin
-- is a wallet currency.

-- Coins held through coin to coin until now become wallet balances (from the house, the
-- counterparty of every trade); resting sells freeze their coins with a ledger hold instead of in
-- the holding.
DO $$
DECLARE
  r record;
  v_hold_id bigint;
BEGIN
  FOR r IN
    SELECT h.user_id, h.book, h.quantity, c.id AS coin_id
    FROM holding h
    JOIN product p ON p.id = h.product_id
    JOIN platform_currency c ON c.currency_name || 'USDT' = p.product_code
    WHERE h.position_type = 3 AND h.quantity > 0
    ORDER BY h.user_id, h.book, h.product_id
  LOOP
    PERFORM ledger_post(r.book, 'user:' || r.user_id, NULL, NULL, 'migrate:bibi_coins', 'holding',
      NULL, NULL, ARRAY['platform', 'user'], ARRAY[r.user_id % 16, r.user_id],
      ARRAY[r.coin_id, r.coin_id], ARRAY['house', 'available'], ARRAY[-r.quantity, r.quantity]);
  END LOOP;
  FOR r IN
    SELECT o.id, o.user_id, o.book, o.quantity, c.id AS coin_id
    FROM spot_order o
    JOIN product p ON p.id = o.product_id
    JOIN platform_currency c ON c.currency_name || 'USDT' = p.product_code
    WHERE o.position_type = 3 AND o.direction = 2 AND o.status = 0
    ORDER BY o.id
  LOOP
    SELECT h.id INTO v_hold_id
    FROM ledger_hold(r.book, r.user_id, r.coin_id, r.quantity, 'bibi_sell', 'spot', r.id::text,
      NULL, NULL) h;
    UPDATE spot_order SET hold_id = v_hold_id WHERE id = r.id;
  END LOOP;
  UPDATE holding SET frozen_quantity = 0 WHERE position_type = 3 AND frozen_quantity > 0;
END $$;

UPDATE product p SET position_types = array_remove(p.position_types, 3::smallint)
WHERE p.product_type = 2 AND 3 = ANY (p.position_types)
  AND NOT EXISTS (SELECT 1 FROM platform_currency c WHERE c.currency_name || 'USDT' = p.product_code);
