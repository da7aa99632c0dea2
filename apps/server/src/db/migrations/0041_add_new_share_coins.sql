-- Allocated crypto is a coin (issue 24: "spot position type for stocks; coins for crypto"). At the
-- listing of a crypto offering the coin becomes a wallet currency (no deposit or withdrawal network
-- until an operator sets one) and its pair trades coin to coin; each allocation is credited to the
-- subscriber's coin balance and frozen there by a ledger hold (`lock_hold_id`) until the lock-up
-- ends (`unlock_at`), when the new-shares worker releases it (`unlocked_at`). A hold keeps the coins
-- from coin-to-coin sells, exchange and withdrawal alike, and the wallet shows them as frozen.
-- Stock offerings keep their locked spot holdings (holding.locked_quantity, migration 0040), and so
-- do crypto offerings listed before this migration.
ALTER TABLE new_share_offering ADD COLUMN coin_currency_id integer REFERENCES platform_currency (id);
ALTER TABLE new_share_subscription ADD COLUMN lock_hold_id bigint UNIQUE REFERENCES ledger_hold (id);
ALTER TABLE new_share_subscription ADD COLUMN unlock_at timestamptz;
ALTER TABLE new_share_subscription ADD COLUMN unlocked_at timestamptz;
ALTER TABLE new_share_subscription ADD CONSTRAINT new_share_subscription_lock
  CHECK ((lock_hold_id IS NULL) = (unlock_at IS NULL) AND (unlocked_at IS NULL OR lock_hold_id IS NOT NULL));
-- The worker's due locks.
CREATE INDEX new_share_subscription_unlock_idx ON new_share_subscription (unlock_at)
  WHERE lock_hold_id IS NOT NULL AND unlocked_at IS NULL;
