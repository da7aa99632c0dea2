-- Tick sequence numbers that identify a tick for the life of the database (PRODUCT 1.2: the
-- evidence of a fill or settlement is its tick's price, time, source and sequence). Every run of
-- the market feed (a start, or an instance taking the feed's lease over) takes the next epoch from
-- this one-row table, and numbers its ticks epoch × 10^9 + 1, 2, 3… per product
-- (src/market/tick-sequence.ts). Before, every run numbered from 1 again.

CREATE TABLE market_tick_epoch (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  -- The epoch the next run takes.
  next_epoch bigint NOT NULL CHECK (next_epoch >= 0)
);

-- A new database has no number yet: its first run takes epoch 0 and numbers from 1. A database
-- with ticks or trades starts at epoch 1000 (sequences from 10^12), above every number written
-- before this migration: per-run counters and Binance aggregate trade ids, both far below 10^12.
-- Evidence outlives the three days of the tick log, so the new numbers stay clear of the old ones
-- without reading them all; logged ticks only raise the start if something larger is there.
INSERT INTO market_tick_epoch (id, next_epoch)
SELECT 1, CASE
  WHEN EXISTS (SELECT 1 FROM market_tick) OR EXISTS (SELECT 1 FROM fast_trade_order)
    OR EXISTS (SELECT 1 FROM contract_position) OR EXISTS (SELECT 1 FROM spot_order)
  THEN GREATEST(1000, (SELECT max(sequence) FROM market_tick) / 1000000000 + 1)
  ELSE 0
END;
