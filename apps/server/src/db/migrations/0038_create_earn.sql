-- Earn (issue 23): lock mining (kind 'financial', the spec's financialProduct) and staking (kind
-- 'staking', stakingProduct), their orders and one interest record per order and UTC day.
--
-- A product publishes one daily rate, or a schedule of rates by amount tier (`rate_tiers`, a JSON
-- list of {minAmount, dailyRate}); names and descriptions per language (English the fallback); a
-- term in days (NULL: flexible, staking only); bounds per order; how many open orders a user may
-- hold; a capacity (the most its live orders hold at once; `held` is raised by a buy and lowered
-- when an order ends, under a row lock on the product); the identity level it needs; when it pays
-- (daily, or at maturity); whether interest compounds (staking only); the early-redemption penalty
-- per day left; whether orders wait for an operator's review; open (1) or closed to new orders (0).
CREATE TABLE earn_image (
  id bigserial PRIMARY KEY,
  mime text NOT NULL CHECK (mime = 'image/jpeg'),
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  sha256 text NOT NULL,
  data bytea NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE earn_product (
  id serial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('financial', 'staking')),
  name jsonb NOT NULL DEFAULT '{}',
  description jsonb NOT NULL DEFAULT '{}',
  image_id bigint REFERENCES earn_image (id),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  term_days integer CHECK (term_days BETWEEN 1 AND 3650),
  daily_rate numeric(12, 8) NOT NULL CHECK (daily_rate > 0 AND daily_rate <= 1),
  rate_tiers jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(rate_tiers) = 'array'),
  min_amount numeric(38, 18) NOT NULL CHECK (min_amount > 0),
  max_amount numeric(38, 18),
  max_orders_per_user integer CHECK (max_orders_per_user > 0),
  capacity numeric(38, 18) CHECK (capacity > 0),
  held numeric(38, 18) NOT NULL DEFAULT 0 CHECK (held >= 0),
  min_auth_level smallint NOT NULL DEFAULT -1 CHECK (min_auth_level IN (-1, 0, 1)),
  payout text NOT NULL CHECK (payout IN ('daily', 'maturity')),
  compounding boolean NOT NULL DEFAULT false,
  penalty_rate numeric(12, 8) NOT NULL DEFAULT 0 CHECK (penalty_rate >= 0 AND penalty_rate <= 1),
  requires_review boolean NOT NULL DEFAULT false,
  status smallint NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  sort integer NOT NULL DEFAULT 0,
  created_by bigint,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (max_amount IS NULL OR max_amount >= min_amount),
  CHECK (kind = 'staking' OR (term_days IS NOT NULL AND NOT compounding)),
  -- Flexible and compounding products credit interest every day; flexible ones have no penalty.
  CHECK (payout = 'daily' OR (term_days IS NOT NULL AND NOT compounding)),
  CHECK (term_days IS NOT NULL OR penalty_rate = 0)
);
CREATE INDEX earn_product_kind_idx ON earn_product (kind, status, sort, id);

-- An order: the product's terms copied when it was placed (a later change of the product never
-- touches it), its principal moved from the user's available balance to the `staked` account
-- (`buy_entry_id`), in the user's book (live, or demo with virtual funds). `balance` is what it
-- stakes now: the principal, plus the interest compounded into it. Status 0 pending (the product
-- requires review), 1 active, 2 completed, 3 rejected (released), 4 redeemed early.
--
-- Interest days run from `first_day` (the UTC day after it started) to `end_day` (NULL: flexible);
-- `last_day` is the last day accrued. Each day's interest is trunc(balance × daily_rate + carry,
-- scale) and `carry` keeps what the rounding left (unbounded numeric: exactly the remainder), so
-- the interest of k days is principal × rate × k rounded down once (packages/shared/src/earn.ts).
-- `interest_paid`: credited to the user (paid out, or compounded into the stake); `interest_accrued`:
-- accrued for payment at maturity (kept once paid or forfeited, as the order's record).
CREATE TABLE earn_order (
  id bigserial PRIMARY KEY,
  order_no text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('financial', 'staking')),
  product_id integer NOT NULL REFERENCES earn_product (id),
  user_id bigint NOT NULL REFERENCES app_user (id),
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  scale smallint NOT NULL CHECK (scale BETWEEN 0 AND 18),
  request_id text NOT NULL CHECK (length(request_id) <= 64),
  request_hash text NOT NULL,
  principal numeric(38, 18) NOT NULL CHECK (principal > 0),
  balance numeric(38, 18) NOT NULL CHECK (balance >= 0),
  daily_rate numeric(12, 8) NOT NULL CHECK (daily_rate > 0),
  term_days integer CHECK (term_days BETWEEN 1 AND 3650),
  payout text NOT NULL CHECK (payout IN ('daily', 'maturity')),
  compounding boolean NOT NULL,
  penalty_rate numeric(12, 8) NOT NULL CHECK (penalty_rate >= 0),
  expected_interest numeric(38, 18),
  carry numeric NOT NULL DEFAULT 0 CHECK (carry >= 0),
  -- The interest of the last day accrued (the daily job reads it back from its UPDATE).
  last_interest numeric(38, 18),
  interest_paid numeric(38, 18) NOT NULL DEFAULT 0 CHECK (interest_paid >= 0),
  interest_accrued numeric(38, 18) NOT NULL DEFAULT 0 CHECK (interest_accrued >= 0),
  days_accrued integer NOT NULL DEFAULT 0 CHECK (days_accrued >= 0),
  first_day date,
  end_day date,
  last_day date,
  status smallint NOT NULL CHECK (status IN (0, 1, 2, 3, 4)),
  penalty numeric(38, 18),
  returned numeric(38, 18),
  reject_reason text CHECK (length(reject_reason) <= 500),
  reviewed_by bigint,
  reviewed_at timestamptz,
  redeem_request_id text CHECK (length(redeem_request_id) <= 64),
  buy_entry_id bigint NOT NULL REFERENCES ledger_entry (id),
  end_entry_id bigint REFERENCES ledger_entry (id),
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  ended_at timestamptz,
  UNIQUE (user_id, request_id),
  CHECK ((first_day IS NOT NULL) = (status IN (1, 2, 4))),
  CHECK ((term_days IS NULL) = (end_day IS NULL) OR first_day IS NULL),
  CHECK ((status = 3) = (reject_reason IS NOT NULL))
)
-- Every active order is updated once a day (its remainder, what it paid, its last day) and none
-- of those columns is indexed: with room left on each page the new version stays on it (a HOT
-- update, no index entry written), which the daily job's time depends on (bench/).
WITH (fillfactor = 70);
CREATE INDEX earn_order_user_idx ON earn_order (user_id, kind, book, id DESC);
CREATE INDEX earn_order_product_idx ON earn_order (product_id, status);
-- The daily job walks the active orders by id; the console's queue, the pending ones.
CREATE INDEX earn_order_active_idx ON earn_order (id) WHERE status = 1;
CREATE INDEX earn_order_pending_idx ON earn_order (id) WHERE status = 0;

-- One row per order and UTC day, written by the daily job in the transaction of its posting (the
-- key makes a day's interest once per order whatever the re-runs). `credited`: paid to the
-- available balance, added to the stake (compounding), or held for maturity (paid with the
-- principal, by the order's `end_entry_id` entry's companion interest entry). `entry_id`: the
-- ledger entry that credited it (NULL while held for maturity, or when the day's interest
-- rounded to nothing). No foreign keys: the job writes these rows in the statement that reads
-- their order and posts their entry (100,000 a day; the ledger's postings skip them for the same
-- reason, ADR 0002).
CREATE TABLE earn_interest (
  order_id bigint NOT NULL,
  day date NOT NULL,
  amount numeric(38, 18) NOT NULL CHECK (amount >= 0),
  balance numeric(38, 18) NOT NULL,
  credited text NOT NULL CHECK (credited IN ('available', 'stake', 'maturity')),
  entry_id bigint,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (order_id, day)
);
