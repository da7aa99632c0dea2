-- Fast trades (PRODUCT section 6, position type 0) and the tick log that decides them.

-- Every tick the feed delivered, kept for a few days: the evidence of fills and settlements, and
-- what settles orders that expired while the server was stopped.
CREATE TABLE market_tick (
  product_id integer NOT NULL REFERENCES product (id),
  tick_time bigint NOT NULL,
  sequence bigint NOT NULL,
  price numeric(38, 18) NOT NULL CHECK (price > 0),
  source text NOT NULL,
  PRIMARY KEY (product_id, tick_time, sequence)
);

-- The choices of a fast trade, per product type and optionally one product (code NULL: every
-- product of the type). Rates are fractions of the stake: payout 0.8 wins 80 %, loss 1 loses it all.
CREATE TABLE fast_trade_option (
  id serial PRIMARY KEY,
  product_type smallint NOT NULL CHECK (product_type IN (1, 2, 3, 4)),
  product_code text,
  duration_seconds integer NOT NULL CHECK (duration_seconds BETWEEN 10 AND 86400),
  payout_rate numeric(12, 8) NOT NULL CHECK (payout_rate > 0 AND payout_rate <= 10),
  loss_rate numeric(12, 8) NOT NULL CHECK (loss_rate > 0 AND loss_rate <= 1),
  min_stake numeric(38, 18) NOT NULL CHECK (min_stake > 0),
  max_stake numeric(38, 18) NOT NULL,
  is_enabled smallint NOT NULL DEFAULT 1 CHECK (is_enabled IN (0, 1)),
  sort integer NOT NULL DEFAULT 0,
  CHECK (max_stake >= min_stake)
);
CREATE INDEX fast_trade_option_product_idx ON fast_trade_option (product_type, product_code);

-- A fast trade: the stake frozen at order; the option's terms copied; entry and exit ticks kept
-- as evidence. Status 0 open, 1 won, 2 lost, 3 tie (stake back).
CREATE TABLE fast_trade_order (
  id bigserial PRIMARY KEY,
  order_no text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES app_user (id),
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  product_id integer NOT NULL REFERENCES product (id),
  option_id integer NOT NULL REFERENCES fast_trade_option (id),
  direction smallint NOT NULL CHECK (direction IN (1, 2)),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  stake numeric(38, 18) NOT NULL CHECK (stake > 0),
  fee numeric(38, 18) NOT NULL CHECK (fee >= 0),
  duration_seconds integer NOT NULL,
  payout_rate numeric(12, 8) NOT NULL,
  loss_rate numeric(12, 8) NOT NULL,
  hold_id bigint NOT NULL UNIQUE REFERENCES ledger_hold (id),
  entry_price numeric(38, 18) NOT NULL,
  entry_time bigint NOT NULL,
  entry_source text NOT NULL,
  entry_sequence bigint NOT NULL,
  expires_at bigint NOT NULL,
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3)),
  exit_price numeric(38, 18),
  exit_time bigint,
  exit_source text,
  exit_sequence bigint,
  -- Signed result for the user: + profit, - loss, 0 tie (the fee is apart).
  result numeric(38, 18),
  settled_at timestamptz,
  request_id text NOT NULL,
  request_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, request_id),
  CHECK ((status = 0) = (settled_at IS NULL)),
  CHECK (status = 0 OR (exit_price IS NOT NULL AND exit_time >= expires_at AND result IS NOT NULL))
);
CREATE INDEX fast_trade_order_user_idx ON fast_trade_order (user_id, book, id DESC);
CREATE INDEX fast_trade_order_open_idx ON fast_trade_order (expires_at) WHERE status = 0;

-- Risk disclosures a user accepted (once each), with when.
CREATE TABLE risk_acceptance (
  user_id bigint NOT NULL REFERENCES app_user (id),
  kind text NOT NULL CHECK (kind IN ('fastTrade')),
  accepted_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, kind)
);
