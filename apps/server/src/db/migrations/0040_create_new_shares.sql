-- New shares and new coins (issue 24): offerings with a subscription window, the users'
-- subscriptions (their cost frozen by a ledger hold), the requests that made, changed or cancelled
-- them (one per user and request id), and the lock-up of the holdings an allocation lists.
--
-- An offering: its product type (1 US stock, 2 crypto), the code it lists under, names and
-- descriptions per language (English the fallback), the currency it is paid and later traded in
-- (the trade currency when it was saved), the offer price, the lot size, the lots offered, the
-- fewest and most lots one user may ask, the subscription fee rate, the four times (window open
-- and close, allocation, listing), the lock-up in days after listing, the identity level it needs
-- and the allocation rule published with it (packages/shared/src/new-shares.ts). Status 0
-- upcoming, 1 subscribing, 2 closed and waiting for its allocation, 3 allocated, 4 listed,
-- 5 cancelled; the API works the first three out from the clock before the worker stores them.
--
-- The allocation is stored as published: the canonical input, its SHA-256 seed and the result
-- text (`<id> <lots> <allocated>` per line, in id order), which the published lines are read
-- from. Nothing changes it once written: the status leaves 3 only for 4 (listed).
CREATE TABLE new_share_offering (
  id serial PRIMARY KEY,
  product_type smallint NOT NULL CHECK (product_type IN (1, 2)),
  code text NOT NULL CHECK (code ~ '^[A-Z0-9.]{1,16}$'),
  name jsonb NOT NULL,
  description jsonb NOT NULL DEFAULT '{}',
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  price numeric(38, 18) NOT NULL CHECK (price > 0),
  lot_size numeric(38, 18) NOT NULL CHECK (lot_size > 0),
  lots_offered bigint NOT NULL CHECK (lots_offered > 0),
  min_lots bigint NOT NULL CHECK (min_lots > 0),
  max_lots bigint NOT NULL,
  fee_rate numeric(12, 8) NOT NULL DEFAULT 0 CHECK (fee_rate >= 0 AND fee_rate <= 0.1),
  subscribe_start timestamptz NOT NULL,
  subscribe_end timestamptz NOT NULL,
  allocation_time timestamptz NOT NULL,
  listing_time timestamptz NOT NULL,
  lock_up_days integer NOT NULL CHECK (lock_up_days BETWEEN 0 AND 3650),
  min_auth_level smallint NOT NULL CHECK (min_auth_level IN (-1, 0, 1)),
  rule text NOT NULL,
  status smallint NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 5),
  allocation_input text,
  allocation_seed text CHECK (allocation_seed ~ '^[0-9a-f]{64}$'),
  allocation_result text,
  lots_requested bigint CHECK (lots_requested >= 0),
  lots_allocated bigint CHECK (lots_allocated >= 0 AND lots_allocated <= lots_offered),
  oversubscribed boolean,
  allocated_at timestamptz,
  product_id integer UNIQUE REFERENCES product (id),
  listed_at timestamptz,
  cancel_reason text CHECK (length(cancel_reason) <= 500),
  cancelled_by bigint,
  cancelled_at timestamptz,
  created_by bigint,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (min_lots <= max_lots AND max_lots <= lots_offered),
  CHECK (subscribe_start < subscribe_end AND subscribe_end <= allocation_time
         AND allocation_time <= listing_time),
  CHECK ((status IN (3, 4)) = (allocation_seed IS NOT NULL AND allocation_input IS NOT NULL
         AND allocation_result IS NOT NULL AND lots_requested IS NOT NULL
         AND lots_allocated IS NOT NULL AND oversubscribed IS NOT NULL AND allocated_at IS NOT NULL)),
  CHECK ((status = 4) = (product_id IS NOT NULL AND listed_at IS NOT NULL)),
  CHECK ((status = 5) = (cancel_reason IS NOT NULL AND cancelled_at IS NOT NULL))
);
-- A code lists once: no two offerings of a type that are not cancelled share it.
CREATE UNIQUE INDEX new_share_offering_code_idx ON new_share_offering (product_type, code)
  WHERE status <> 5;
-- The worker's due offerings, and the app's lists by type.
CREATE INDEX new_share_offering_open_idx ON new_share_offering (status, id) WHERE status < 4;
CREATE INDEX new_share_offering_type_idx ON new_share_offering (product_type, subscribe_start, id);

-- A subscription (live book only): the lots asked, what their cost and fee froze (`frozen`, held
-- by `hold_id`: a change of lots replaces the hold), and once allocated the lots allocated, what
-- they cost (`paid`, captured) and what was released (`refunded`). `public_id` is the opaque id
-- its line carries in the published allocation (16 random hex digits, never the user's id).
-- Status 0 open, 1 allocated (some lots), 2 refunded (no lot), 3 cancelled (by the user while the
-- window was open, or with the offering).
CREATE TABLE new_share_subscription (
  id bigserial PRIMARY KEY,
  public_id text NOT NULL UNIQUE CHECK (public_id ~ '^[0-9a-f]{16}$'),
  order_no text NOT NULL UNIQUE,
  offering_id integer NOT NULL REFERENCES new_share_offering (id),
  user_id bigint NOT NULL REFERENCES app_user (id),
  lots bigint NOT NULL CHECK (lots > 0),
  frozen numeric(38, 18) NOT NULL CHECK (frozen > 0),
  hold_id bigint NOT NULL UNIQUE REFERENCES ledger_hold (id),
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3)),
  allocated_lots bigint CHECK (allocated_lots >= 0 AND allocated_lots <= lots),
  paid numeric(38, 18) CHECK (paid >= 0),
  refunded numeric(38, 18) CHECK (refunded >= 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  closed_at timestamptz,
  CHECK ((status IN (1, 2)) = (allocated_lots IS NOT NULL AND paid IS NOT NULL
         AND refunded IS NOT NULL)),
  CHECK (status <> 1 OR allocated_lots > 0),
  CHECK (status <> 2 OR allocated_lots = 0),
  CHECK (status IN (1, 2) OR paid IS NULL),
  CHECK ((status = 0) = (closed_at IS NULL)),
  CHECK (status NOT IN (1, 2) OR paid + refunded = frozen)
);
-- One open or allocated subscription per user and offering (change it instead).
CREATE UNIQUE INDEX new_share_subscription_one_idx ON new_share_subscription (offering_id, user_id)
  WHERE status IN (0, 1);
CREATE INDEX new_share_subscription_offering_idx ON new_share_subscription (offering_id, status, id);
CREATE INDEX new_share_subscription_user_idx ON new_share_subscription (user_id, id DESC);

-- Each request that subscribed, changed or cancelled, once per user and request id: a retry
-- answers the subscription as it is, the same id for another request is refused.
CREATE TABLE new_share_request (
  user_id bigint NOT NULL REFERENCES app_user (id),
  request_id text NOT NULL CHECK (length(request_id) <= 64),
  request_hash text NOT NULL,
  action text NOT NULL CHECK (action IN ('subscribe', 'change', 'cancel')),
  subscription_id bigint NOT NULL REFERENCES new_share_subscription (id),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, request_id)
);

-- The lock-up of allocated shares: a spot sell (market or limit) may not use `locked_quantity` of
-- the holding while now < `locked_until`. After that the columns stay as they were and mean
-- nothing, so a sell may take the holding below `locked_quantity`: no check ties the two to the
-- quantity (while locked, the sells' own check keeps frozen + locked within it).
ALTER TABLE holding ADD COLUMN locked_quantity numeric(38, 18) NOT NULL DEFAULT 0
  CHECK (locked_quantity >= 0);
ALTER TABLE holding ADD COLUMN locked_until timestamptz;
ALTER TABLE holding ADD CONSTRAINT holding_lock_until CHECK (locked_quantity = 0 OR locked_until IS NOT NULL);
