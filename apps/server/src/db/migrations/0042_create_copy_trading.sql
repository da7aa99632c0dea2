-- Copy trading (issue 25): lead traders (approved from an application), the follower–trader
-- relations, the queue that mirrors a trader's opens, closes and TP/SL changes onto the followers'
-- own positions, the trader's closed trades the statistics are computed from, and the settlements
-- of the profit share above each relation's high-water mark.
--
-- An application to lead: status 0 pending, 1 approved, 2 rejected (with the operator's reason);
-- `closed_trades` is the applicant's track record (closed live contracts) when applying. One
-- pending application per user.
CREATE TABLE copy_trader_application (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES app_user (id),
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
  closed_trades integer NOT NULL CHECK (closed_trades >= 0),
  reason text CHECK (length(reason) <= 500),
  reviewed_by bigint REFERENCES operator (id),
  reviewed_at timestamptz,
  request_id text NOT NULL CHECK (length(request_id) <= 64),
  created_at timestamptz NOT NULL,
  CHECK ((status = 0) = (reviewed_at IS NULL)),
  CHECK (status <> 2 OR reason IS NOT NULL),
  UNIQUE (user_id, request_id)
);
CREATE UNIQUE INDEX copy_trader_application_pending_idx ON copy_trader_application (user_id)
  WHERE status = 0;
CREATE INDEX copy_trader_application_status_idx ON copy_trader_application (status, id);

-- A lead trader: status 1 active, 2 suspended (no new follows, no new copies; closes still
-- mirrored), the texts per language, the profit-share rate (at most the console's maximum), the
-- follower limits the trader sets (copy amount bounds, the most followers) and the cap the console
-- sets on them (NULL: none). The statistics are computed by the server from the trader's closed
-- live trades (copy_trader_trade) and stored here with their time; `stats_due` asks the worker to
-- compute them again (a trade closed since). No operator call writes them.
CREATE TABLE copy_trader (
  user_id bigint PRIMARY KEY REFERENCES app_user (id),
  status smallint NOT NULL DEFAULT 1 CHECK (status IN (1, 2)),
  title jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(title) = 'object'),
  description jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(description) = 'object'),
  profit_share_rate numeric(12, 8) NOT NULL DEFAULT 0
    CHECK (profit_share_rate >= 0 AND profit_share_rate < 1),
  min_copy_amount numeric(38, 18) NOT NULL DEFAULT 0 CHECK (min_copy_amount >= 0),
  max_copy_amount numeric(38, 18) CHECK (max_copy_amount > 0),
  max_followers integer NOT NULL DEFAULT 100 CHECK (max_followers > 0),
  max_followers_cap integer CHECK (max_followers_cap > 0),
  approved_at timestamptz NOT NULL,
  suspended_reason text CHECK (length(suspended_reason) <= 500),
  suspended_at timestamptz,
  stats jsonb,
  stats_at timestamptz,
  stats_due boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL,
  CHECK (max_copy_amount IS NULL OR max_copy_amount >= min_copy_amount),
  CHECK ((status = 2) = (suspended_at IS NOT NULL))
);
CREATE INDEX copy_trader_stats_due_idx ON copy_trader (user_id) WHERE stats_due;

-- One closed live contract of a trader, written in the close's transaction: its net result after
-- the open and close fees, its margin, and the trader's equity in the trade currency (available
-- plus margin) just before the close. The statistics' inputs.
CREATE TABLE copy_trader_trade (
  position_id bigint PRIMARY KEY REFERENCES contract_position (id),
  trader_id bigint NOT NULL REFERENCES app_user (id),
  opened_at timestamptz NOT NULL,
  closed_at timestamptz NOT NULL,
  pnl numeric(38, 18) NOT NULL,
  margin numeric(38, 18) NOT NULL CHECK (margin > 0),
  equity_before numeric(38, 18) NOT NULL
);
CREATE INDEX copy_trader_trade_trader_idx ON copy_trader_trade (trader_id, closed_at, position_id);

-- A follower's relation to a trader in a book (a demo follower copies into its demo book; the
-- trader's positions are live): mode 1 a fixed margin per copy (`amount`), 2 a ratio of the
-- leader's margin (`ratio`); the most copies open at once; the follower's own TP/SL as fractions
-- of a copy's margin (NULL: the leader's are mirrored); the budget (the most margin the open
-- copies may use at once). Status 1 active, 2 ended (end_mode 1 copies closed at market, 2 kept).
-- `cum_pnl` is the copies' realized net result (after fees) in the currency, `hwm` the high-water
-- mark, `owed` a share settled but not yet paid (the follower's balance was short).
CREATE TABLE copy_relation (
  id bigserial PRIMARY KEY,
  follower_id bigint NOT NULL REFERENCES app_user (id),
  trader_id bigint NOT NULL REFERENCES copy_trader (user_id),
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  mode smallint NOT NULL CHECK (mode IN (1, 2)),
  amount numeric(38, 18) CHECK (amount > 0),
  ratio numeric(20, 8) CHECK (ratio > 0),
  max_open integer NOT NULL CHECK (max_open > 0),
  tp_rate numeric(20, 8) CHECK (tp_rate > 0),
  sl_rate numeric(20, 8) CHECK (sl_rate > 0),
  budget numeric(38, 18) NOT NULL CHECK (budget > 0),
  profit_share_rate numeric(12, 8) NOT NULL CHECK (profit_share_rate >= 0 AND profit_share_rate < 1),
  status smallint NOT NULL DEFAULT 1 CHECK (status IN (1, 2)),
  cum_pnl numeric(38, 18) NOT NULL DEFAULT 0,
  hwm numeric(38, 18) NOT NULL DEFAULT 0,
  owed numeric(38, 18) NOT NULL DEFAULT 0 CHECK (owed >= 0),
  paid numeric(38, 18) NOT NULL DEFAULT 0 CHECK (paid >= 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  ended_at timestamptz,
  end_mode smallint CHECK (end_mode IN (1, 2)),
  CHECK (follower_id <> trader_id),
  CHECK ((mode = 1) = (amount IS NOT NULL) AND (mode = 2) = (ratio IS NOT NULL)),
  CHECK ((status = 2) = (ended_at IS NOT NULL AND end_mode IS NOT NULL))
);
CREATE UNIQUE INDEX copy_relation_active_idx ON copy_relation (follower_id, trader_id, book)
  WHERE status = 1;
-- The fan-out: a trader's active relations.
CREATE INDEX copy_relation_trader_idx ON copy_relation (trader_id, id) WHERE status = 1;
CREATE INDEX copy_relation_trader_all_idx ON copy_relation (trader_id, follower_id);
CREATE INDEX copy_relation_follower_idx ON copy_relation (follower_id, id DESC);

-- Each request that followed, changed or ended a relation, once per user and request id.
CREATE TABLE copy_request (
  user_id bigint NOT NULL REFERENCES app_user (id),
  request_id text NOT NULL CHECK (length(request_id) <= 64),
  request_hash text NOT NULL,
  action text NOT NULL CHECK (action IN ('follow', 'edit', 'unfollow')),
  relation_id bigint NOT NULL REFERENCES copy_relation (id),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, request_id)
);

-- The queue of the fan-out: one step of one relation for one leader position. Kind 'open' (seq 0),
-- 'close' (seq 0) or 'tpsl' (seq: the leader's change time in ms). Status 0 pending, 1 done,
-- 2 failed (with the hint key of why), 3 skipped (nothing to do, with why). Retried with backoff
-- (`next_at`) up to a bound of attempts; the open places the follower's position under the request
-- id copy_<relation>_<leader position>_open, so a retry after a crash never opens twice.
CREATE TABLE copy_task (
  id bigserial PRIMARY KEY,
  relation_id bigint NOT NULL REFERENCES copy_relation (id),
  leader_position_id bigint NOT NULL REFERENCES contract_position (id),
  kind text NOT NULL CHECK (kind IN ('open', 'close', 'tpsl')),
  seq bigint NOT NULL DEFAULT 0,
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3)),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_at timestamptz NOT NULL,
  follower_position_id bigint REFERENCES contract_position (id),
  reason text CHECK (length(reason) <= 64),
  params jsonb,
  created_at timestamptz NOT NULL,
  done_at timestamptz,
  UNIQUE (relation_id, leader_position_id, kind, seq),
  CHECK ((status = 0) = (done_at IS NULL))
);
CREATE INDEX copy_task_due_idx ON copy_task (next_at, id) WHERE status = 0;
CREATE INDEX copy_task_leader_idx ON copy_task (leader_position_id) WHERE kind = 'open';
CREATE UNIQUE INDEX copy_task_copy_idx ON copy_task (follower_position_id)
  WHERE follower_position_id IS NOT NULL AND kind = 'open';
CREATE INDEX copy_task_relation_idx ON copy_task (relation_id, kind, id DESC);

-- A settlement of a relation's profit share: reason 1 daily (once per relation and UTC day), 2 at
-- unfollow. The inputs (cumulative P&L, the mark before, the rate, what was owed before) and the
-- outputs (the share of this settlement, the mark after, what was paid and what stays owed), and the
-- ledger entry that paid it (none when nothing moved).
CREATE TABLE copy_settlement (
  id bigserial PRIMARY KEY,
  relation_id bigint NOT NULL REFERENCES copy_relation (id),
  follower_id bigint NOT NULL REFERENCES app_user (id),
  trader_id bigint NOT NULL REFERENCES app_user (id),
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  reason smallint NOT NULL CHECK (reason IN (1, 2)),
  day date NOT NULL,
  cum_pnl numeric(38, 18) NOT NULL,
  hwm_before numeric(38, 18) NOT NULL,
  hwm_after numeric(38, 18) NOT NULL,
  rate numeric(12, 8) NOT NULL,
  share numeric(38, 18) NOT NULL CHECK (share >= 0),
  owed_before numeric(38, 18) NOT NULL CHECK (owed_before >= 0),
  paid numeric(38, 18) NOT NULL CHECK (paid >= 0),
  owed_after numeric(38, 18) NOT NULL CHECK (owed_after >= 0),
  entry_id bigint,
  created_at timestamptz NOT NULL,
  CHECK (paid + owed_after = share + owed_before),
  UNIQUE (relation_id, reason, day)
);
CREATE INDEX copy_settlement_follower_idx ON copy_settlement (follower_id, id DESC);
CREATE INDEX copy_settlement_trader_idx ON copy_settlement (trader_id, day);
CREATE INDEX copy_settlement_day_idx ON copy_settlement (day);
