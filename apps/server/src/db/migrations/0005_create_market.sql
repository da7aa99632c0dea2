-- Market data (PRODUCT section 4): the product catalogue, candles and users' favourites.

CREATE TABLE product (
  id serial PRIMARY KEY,
  -- 1 US stock, 2 crypto, 3 futures, 4 forex
  product_type smallint NOT NULL CHECK (product_type IN (1, 2, 3, 4)),
  product_code text NOT NULL CHECK (product_code ~ '^[A-Z0-9.]{1,16}$'),
  -- Names per language key ({"en": "Apple", "zh": "苹果", ...}).
  product_name_lang jsonb NOT NULL,
  product_desc text NOT NULL DEFAULT '',
  product_img text NOT NULL DEFAULT '',
  -- Position types the product can be traded with (0 fast, 1 contract, 2 spot, 3 coin-to-coin).
  position_types smallint[] NOT NULL,
  is_visible smallint NOT NULL DEFAULT 1 CHECK (is_visible IN (0, 1)),
  sort integer NOT NULL DEFAULT 0,
  -- 0 tradable, 1 trading halted by the operator (quotes keep coming from the feed).
  is_lock smallint NOT NULL DEFAULT 0 CHECK (is_lock IN (0, 1)),
  is_show smallint NOT NULL DEFAULT 1 CHECK (is_show IN (0, 1)),
  -- Self-priced instruments do not exist here (PRODUCT section 1): prices come only from a feed.
  is_self_sell smallint NOT NULL DEFAULT 0 CHECK (is_self_sell = 0),
  -- Lot size: the quantity step of an order.
  standard numeric(38, 18) NOT NULL CHECK (standard > 0),
  price_scale smallint NOT NULL CHECK (price_scale BETWEEN 0 AND 10),
  leverages integer[] NOT NULL,
  session text NOT NULL CHECK (session IN ('usStock', 'forex', 'futures', 'crypto')),
  source_symbol text NOT NULL,
  -- Parameters of the simulated feed.
  reference_price numeric(38, 18) NOT NULL CHECK (reference_price > 0),
  volatility numeric(10, 6) NOT NULL CHECK (volatility > 0),
  daily_volume numeric(38, 18) NOT NULL CHECK (daily_volume >= 0),
  recommended smallint NOT NULL DEFAULT 0 CHECK (recommended IN (0, 1)),
  UNIQUE (product_type, product_code)
);

-- Candles at the two stored resolutions: minutes (live and recent) and days (history); every
-- other interval is aggregated from one of them.
CREATE TABLE market_candle (
  product_id integer NOT NULL REFERENCES product (id),
  resolution text NOT NULL CHECK (resolution IN ('1m', '1d')),
  open_time timestamptz NOT NULL,
  open numeric(38, 18) NOT NULL,
  high numeric(38, 18) NOT NULL,
  low numeric(38, 18) NOT NULL,
  close numeric(38, 18) NOT NULL,
  volume numeric(38, 18) NOT NULL DEFAULT 0,
  amount numeric(38, 18) NOT NULL DEFAULT 0,
  PRIMARY KEY (product_id, resolution, open_time),
  CHECK (low <= open AND low <= close AND high >= open AND high >= close)
);

CREATE TABLE user_product_option (
  user_id bigint NOT NULL REFERENCES app_user (id),
  product_id integer NOT NULL REFERENCES product (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, product_id)
);
CREATE INDEX user_product_option_product_idx ON user_product_option (product_id);
