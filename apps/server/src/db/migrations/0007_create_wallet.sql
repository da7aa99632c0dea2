-- The wallet (PRODUCT section 5): deposit and withdrawal channels and requests, bank cards,
-- wallet addresses and currency exchange. Balances are never stored here: every amount that
-- moves goes through the ledger, and these tables keep the requests and their review.

-- Where users pay in: 1 bank transfer (the account to pay into), 2 crypto (network and deposit
-- address), 3 online (a payment page the user is sent to).
CREATE TABLE recharge_channel (
  id serial PRIMARY KEY,
  channel_type smallint NOT NULL CHECK (channel_type IN (1, 2, 3)),
  channel_name text NOT NULL CHECK (length(channel_name) BETWEEN 1 AND 64),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  network text,
  deposit_address text CHECK (length(deposit_address) <= 128),
  bank_name text CHECK (length(bank_name) <= 64),
  account_name text CHECK (length(account_name) <= 64),
  account_number text CHECK (length(account_number) <= 34),
  pay_url text CHECK (pay_url ~ '^https?://' AND length(pay_url) <= 512),
  min_amount numeric(38, 18) NOT NULL CHECK (min_amount > 0),
  max_amount numeric(38, 18) NOT NULL,
  remark text NOT NULL DEFAULT '' CHECK (length(remark) <= 500),
  sort integer NOT NULL DEFAULT 0,
  is_visible smallint NOT NULL DEFAULT 1 CHECK (is_visible IN (0, 1)),
  CHECK (max_amount >= min_amount),
  CHECK (channel_type <> 1 OR (bank_name IS NOT NULL AND account_name IS NOT NULL AND account_number IS NOT NULL)),
  CHECK (channel_type <> 2 OR (network IS NOT NULL AND deposit_address IS NOT NULL)),
  CHECK (channel_type <> 3 OR pay_url IS NOT NULL)
);

-- A deposit request: 0 under review, 1 approved (credited by the ledger entry), 2 rejected.
CREATE TABLE user_recharge (
  id bigserial PRIMARY KEY,
  order_no text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES app_user (id),
  channel_id integer NOT NULL REFERENCES recharge_channel (id),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  amount numeric(38, 18) NOT NULL CHECK (amount > 0),
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
  reject_reason text CHECK (length(reject_reason) <= 500),
  remark text CHECK (length(remark) <= 140),
  request_id text NOT NULL,
  request_hash text NOT NULL,
  entry_id bigint REFERENCES ledger_entry (id),
  created_at timestamptz NOT NULL,
  reviewed_at timestamptz,
  reviewed_by bigint,
  UNIQUE (user_id, request_id),
  CHECK ((status = 0) = (reviewed_at IS NULL)),
  CHECK ((status = 1) = (entry_id IS NOT NULL)),
  CHECK (status <> 2 OR reject_reason IS NOT NULL)
);
CREATE INDEX user_recharge_user_idx ON user_recharge (user_id, id DESC);
CREATE INDEX user_recharge_status_idx ON user_recharge (status, id);

-- The payment proof of a deposit: checked JPEG or PNG bytes, readable only by their owner and
-- by operators through the console API (never served as a static file).
CREATE TABLE recharge_proof (
  recharge_id bigint PRIMARY KEY REFERENCES user_recharge (id),
  mime text NOT NULL CHECK (mime IN ('image/jpeg', 'image/png')),
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  sha256 text NOT NULL,
  data bytea NOT NULL
);

-- Where users are paid out: 1 bank transfer (to a bound card), 2 crypto (to a bound address).
CREATE TABLE withdraw_channel (
  id serial PRIMARY KEY,
  channel_type smallint NOT NULL CHECK (channel_type IN (1, 2)),
  channel_name text NOT NULL CHECK (length(channel_name) BETWEEN 1 AND 64),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  network text,
  fee_rate numeric(12, 8) NOT NULL CHECK (fee_rate >= 0 AND fee_rate < 1),
  fixed_fee numeric(38, 18) NOT NULL DEFAULT 0 CHECK (fixed_fee >= 0),
  min_amount numeric(38, 18) NOT NULL CHECK (min_amount > 0),
  max_amount numeric(38, 18) NOT NULL,
  daily_limit numeric(38, 18) NOT NULL,
  remark text NOT NULL DEFAULT '' CHECK (length(remark) <= 500),
  sort integer NOT NULL DEFAULT 0,
  is_visible smallint NOT NULL DEFAULT 1 CHECK (is_visible IN (0, 1)),
  CHECK (max_amount >= min_amount),
  CHECK (daily_limit >= min_amount),
  CHECK (channel_type <> 2 OR network IS NOT NULL)
);

-- Bank cards: the fields of bank_property_config, kept as given. Deleted cards are kept (marked)
-- because withdrawals refer to them.
CREATE TABLE user_bank (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES app_user (id),
  card_number text NOT NULL CHECK (card_number ~ '^[0-9A-Z]{6,34}$'),
  properties jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE UNIQUE INDEX user_bank_card_key ON user_bank (user_id, card_number) WHERE deleted_at IS NULL;
CREATE INDEX user_bank_user_idx ON user_bank (user_id, id) WHERE deleted_at IS NULL;

CREATE TABLE user_wallet_address (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES app_user (id),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  network text NOT NULL CHECK (length(network) BETWEEN 1 AND 16),
  address text NOT NULL CHECK (length(address) BETWEEN 8 AND 128),
  remark text CHECK (length(remark) <= 64),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE UNIQUE INDEX user_wallet_address_key ON user_wallet_address (user_id, currency_id, network, address)
  WHERE deleted_at IS NULL;
CREATE INDEX user_wallet_address_user_idx ON user_wallet_address (user_id, id) WHERE deleted_at IS NULL;

-- A withdrawal request: 0 under review, 1 paid, 2 rejected, 3 cancelled. Amount plus fee are
-- frozen by the ledger hold when it is made; paying captures the hold, rejecting or cancelling
-- releases it. The destination is copied so later edits of the card or address change nothing.
CREATE TABLE user_withdraw (
  id bigserial PRIMARY KEY,
  order_no text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES app_user (id),
  channel_id integer NOT NULL REFERENCES withdraw_channel (id),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  amount numeric(38, 18) NOT NULL CHECK (amount > 0),
  fee numeric(38, 18) NOT NULL CHECK (fee >= 0),
  bank_id bigint REFERENCES user_bank (id),
  address_id bigint REFERENCES user_wallet_address (id),
  destination jsonb NOT NULL,
  hold_id bigint NOT NULL UNIQUE REFERENCES ledger_hold (id),
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3)),
  reject_reason text CHECK (length(reject_reason) <= 500),
  request_id text NOT NULL,
  request_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  closed_at timestamptz,
  reviewed_by bigint,
  UNIQUE (user_id, request_id),
  CHECK ((bank_id IS NULL) <> (address_id IS NULL)),
  CHECK ((status = 0) = (closed_at IS NULL)),
  CHECK (status <> 2 OR reject_reason IS NOT NULL)
);
CREATE INDEX user_withdraw_user_idx ON user_withdraw (user_id, id DESC);
CREATE INDEX user_withdraw_status_idx ON user_withdraw (status, id);
CREATE INDEX user_withdraw_daily_idx ON user_withdraw (user_id, currency_id, created_at) WHERE status IN (0, 1);

-- A currency exchange quote: valid until expires_at, used at most once.
CREATE TABLE exchange_quote (
  id text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES app_user (id),
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  from_currency_id integer NOT NULL REFERENCES platform_currency (id),
  to_currency_id integer NOT NULL REFERENCES platform_currency (id),
  amount numeric(38, 18) NOT NULL CHECK (amount > 0),
  rate numeric(38, 18) NOT NULL CHECK (rate > 0),
  fee_rate numeric(12, 8) NOT NULL CHECK (fee_rate >= 0 AND fee_rate < 1),
  fee numeric(38, 18) NOT NULL CHECK (fee >= 0),
  receive_amount numeric(38, 18) NOT NULL CHECK (receive_amount > 0),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  CHECK (from_currency_id <> to_currency_id)
);
CREATE INDEX exchange_quote_expiry_idx ON exchange_quote (expires_at);

CREATE TABLE balance_convert_record (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES app_user (id),
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  quote_id text NOT NULL UNIQUE REFERENCES exchange_quote (id),
  from_currency_id integer NOT NULL REFERENCES platform_currency (id),
  to_currency_id integer NOT NULL REFERENCES platform_currency (id),
  amount numeric(38, 18) NOT NULL CHECK (amount > 0),
  rate numeric(38, 18) NOT NULL,
  fee numeric(38, 18) NOT NULL,
  receive_amount numeric(38, 18) NOT NULL,
  entry_id bigint NOT NULL REFERENCES ledger_entry (id),
  request_id text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, request_id)
);
CREATE INDEX balance_convert_record_user_idx ON balance_convert_record (user_id, book, id DESC);
