-- Contracts (position type 1), spot (2) and coin-to-coin (3) orders, holdings, and the maintenance
-- margin of each product (PRODUCT section 6).

-- Equity at or below notional × maintenance_rate liquidates a contract.
ALTER TABLE product ADD COLUMN maintenance_rate numeric(12, 8) NOT NULL DEFAULT 0.005
  CHECK (maintenance_rate > 0 AND maintenance_rate < 1);

-- A contract: a limit entry resting (status 0) with margin and fee frozen by a hold, then an open
-- position (1) whose margin sits in the user's margin account, then closed (2) with its exit tick,
-- or cancelled (3) before it filled. Entry and exit keep the ticks that decided them.
CREATE TABLE contract_position (
  id bigserial PRIMARY KEY,
  order_no text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES app_user (id),
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  product_id integer NOT NULL REFERENCES product (id),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  direction smallint NOT NULL CHECK (direction IN (1, 2)),
  leverage integer NOT NULL CHECK (leverage BETWEEN 1 AND 1000),
  order_type smallint NOT NULL CHECK (order_type IN (1, 2)),
  limit_price numeric(38, 18) CHECK (limit_price > 0),
  quantity numeric(38, 18) NOT NULL CHECK (quantity > 0),
  margin numeric(38, 18) NOT NULL CHECK (margin > 0),
  open_fee numeric(38, 18) NOT NULL CHECK (open_fee >= 0),
  maintenance_rate numeric(12, 8) NOT NULL,
  take_profit numeric(38, 18) CHECK (take_profit > 0),
  stop_loss numeric(38, 18) CHECK (stop_loss > 0),
  liquidation_price numeric(38, 18),
  hold_id bigint UNIQUE REFERENCES ledger_hold (id),
  status smallint NOT NULL CHECK (status IN (0, 1, 2, 3)),
  entry_price numeric(38, 18),
  -- The tick that filled the entry (a limit entry fills at its limit, the tick may be beyond it).
  entry_tick_price numeric(38, 18),
  entry_time bigint,
  entry_source text,
  entry_sequence bigint,
  close_reason smallint CHECK (close_reason IN (1, 2, 3, 4)),
  exit_price numeric(38, 18),
  exit_time bigint,
  exit_source text,
  exit_sequence bigint,
  close_fee numeric(38, 18),
  realized_pnl numeric(38, 18),
  request_id text NOT NULL,
  request_hash text NOT NULL,
  close_request_id text,
  -- When take-profit and stop-loss were last set (ms): only later ticks can trigger them.
  tpsl_at bigint,
  created_at timestamptz NOT NULL,
  opened_at timestamptz,
  closed_at timestamptz,
  UNIQUE (user_id, request_id),
  CHECK (order_type = 1 OR limit_price IS NOT NULL),
  CHECK (status = 0 OR status = 3 OR entry_price IS NOT NULL),
  CHECK (status <> 2 OR (exit_price IS NOT NULL AND close_reason IS NOT NULL AND realized_pnl IS NOT NULL))
);
CREATE INDEX contract_position_user_idx ON contract_position (user_id, book, id DESC);
CREATE INDEX contract_position_live_idx ON contract_position (product_id) WHERE status IN (0, 1);

-- What a user holds of a product through spot (2) or coin-to-coin (3): the quantity, the part of
-- it frozen by resting sells, and its cost (average cost = cost / quantity).
CREATE TABLE holding (
  user_id bigint NOT NULL REFERENCES app_user (id),
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  product_id integer NOT NULL REFERENCES product (id),
  position_type smallint NOT NULL CHECK (position_type IN (2, 3)),
  quantity numeric(38, 18) NOT NULL DEFAULT 0 CHECK (quantity >= 0),
  frozen_quantity numeric(38, 18) NOT NULL DEFAULT 0 CHECK (frozen_quantity >= 0),
  cost numeric(38, 18) NOT NULL DEFAULT 0 CHECK (cost >= 0),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, book, position_type, product_id),
  CHECK (frozen_quantity <= quantity)
);

-- A spot or coin-to-coin order. Buys rest with funds frozen by a hold; sells rest with quantity
-- frozen in the holding. Status 0 resting, 1 filled, 2 cancelled. The fill keeps its tick.
CREATE TABLE spot_order (
  id bigserial PRIMARY KEY,
  order_no text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES app_user (id),
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  position_type smallint NOT NULL CHECK (position_type IN (2, 3)),
  product_id integer NOT NULL REFERENCES product (id),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  direction smallint NOT NULL CHECK (direction IN (1, 2)),
  order_type smallint NOT NULL CHECK (order_type IN (1, 2)),
  limit_price numeric(38, 18) CHECK (limit_price > 0),
  quantity numeric(38, 18) NOT NULL CHECK (quantity > 0),
  hold_id bigint UNIQUE REFERENCES ledger_hold (id),
  status smallint NOT NULL CHECK (status IN (0, 1, 2)),
  fill_price numeric(38, 18),
  -- The tick that filled it (a resting order fills at its limit, the tick may be beyond it).
  fill_tick_price numeric(38, 18),
  fill_time bigint,
  fill_source text,
  fill_sequence bigint,
  amount numeric(38, 18),
  fee numeric(38, 18) NOT NULL DEFAULT 0 CHECK (fee >= 0),
  realized_pnl numeric(38, 18),
  request_id text NOT NULL,
  request_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  filled_at timestamptz,
  cancelled_at timestamptz,
  UNIQUE (user_id, request_id),
  CHECK (order_type = 1 OR limit_price IS NOT NULL),
  CHECK (status <> 1 OR (fill_price IS NOT NULL AND amount IS NOT NULL))
);
CREATE INDEX spot_order_user_idx ON spot_order (user_id, book, position_type, id DESC);
CREATE INDEX spot_order_resting_idx ON spot_order (product_id) WHERE status = 0;
