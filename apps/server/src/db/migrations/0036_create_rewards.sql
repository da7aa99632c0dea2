-- Welfare campaigns and their tasks, completions paid through the ledger, and deposit reward tiers
-- (issue 22).
--
-- A campaign: title and description per language (English the fallback), a window, a budget in
-- one currency (its tasks pay in it) and what it spent. `spent` is only ever raised by a payout, in
-- the payout's transaction, under a row lock on the campaign (FOR UPDATE): it always equals the
-- sum of its paid completions, and the CHECK keeps it within the budget. `ended_at`: an operator
-- ended it early (with a reason, audited). `withdraw_condition`: a condition stated up front on
-- what the rewards can be used for (none by default; the app shows it beside each task).
CREATE TABLE reward_campaign (
  id serial PRIMARY KEY,
  title jsonb NOT NULL DEFAULT '{}',
  description jsonb NOT NULL DEFAULT '{}',
  withdraw_condition jsonb,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  budget numeric(38, 18) NOT NULL CHECK (budget > 0),
  spent numeric(38, 18) NOT NULL DEFAULT 0 CHECK (spent >= 0),
  ended_at timestamptz,
  end_reason text CHECK (length(end_reason) <= 500),
  created_by bigint,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (ends_at > starts_at),
  CHECK (spent <= budget),
  CHECK ((ended_at IS NULL) = (end_reason IS NULL))
);
CREATE INDEX reward_campaign_window_idx ON reward_campaign (ends_at, starts_at);

-- A task of a campaign: what completes it (its kind and threshold) and what it pays, in the
-- campaign's currency. Kinds: identity0, identity1 (the level verified), firstDeposit (a first
-- approved deposit of at least `threshold` within the window), firstTrade (a first live trade within
-- the window), volume (live trading notional of at least `threshold` within the window), invite
-- (an invitee verified identity within the window). Fixed once the campaign has started.
CREATE TABLE reward_task (
  id serial PRIMARY KEY,
  campaign_id integer NOT NULL REFERENCES reward_campaign (id),
  kind text NOT NULL CHECK (kind IN ('identity0', 'identity1', 'firstDeposit', 'firstTrade', 'volume', 'invite')),
  threshold numeric(38, 18) NOT NULL DEFAULT 0 CHECK (threshold >= 0),
  reward numeric(38, 18) NOT NULL CHECK (reward > 0),
  sort integer NOT NULL DEFAULT 0
);
CREATE INDEX reward_task_campaign_idx ON reward_task (campaign_id, sort, id);

-- A user's completion of a task: one row per (task, user) whatever the number of evaluations.
-- `paid` false: completed when the campaign's budget could no longer pay it (recorded, not paid).
-- A paid one has its ledger entry (request id `reward-task:<task>:<user>`).
CREATE TABLE reward_completion (
  id bigserial PRIMARY KEY,
  task_id integer NOT NULL REFERENCES reward_task (id),
  campaign_id integer NOT NULL REFERENCES reward_campaign (id),
  user_id bigint NOT NULL REFERENCES app_user (id),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  amount numeric(38, 18) NOT NULL CHECK (amount >= 0),
  paid boolean NOT NULL,
  entry_id bigint REFERENCES ledger_entry (id),
  completed_at timestamptz NOT NULL,
  UNIQUE (task_id, user_id),
  CHECK (paid = (entry_id IS NOT NULL))
);
CREATE INDEX reward_completion_user_idx ON reward_completion (user_id, id DESC);
CREATE INDEX reward_completion_campaign_idx ON reward_completion (campaign_id);

-- Deposit reward tiers: a deposit of `currency_id` in [min_amount, max_amount) (no maximum when
-- NULL) pays `rate` × its amount, once per user per tier. A tier is never changed in place: a
-- change retires the version (retired_at) and adds a new one of the same `lineage_id` (the first
-- version's id), so a deposit is paid by the tiers in force when it was submitted.
CREATE TABLE reward_tier (
  id serial PRIMARY KEY,
  lineage_id integer NOT NULL,
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  min_amount numeric(38, 18) NOT NULL CHECK (min_amount >= 0),
  max_amount numeric(38, 18),
  rate numeric(12, 8) NOT NULL CHECK (rate > 0 AND rate <= 1),
  created_by bigint,
  created_at timestamptz NOT NULL,
  retired_at timestamptz,
  CHECK (max_amount IS NULL OR max_amount > min_amount)
);
CREATE INDEX reward_tier_currency_idx ON reward_tier (currency_id, min_amount);

-- A tier's reward: once per user per tier (lineage), once per deposit.
CREATE TABLE reward_tier_payout (
  id bigserial PRIMARY KEY,
  tier_id integer NOT NULL REFERENCES reward_tier (id),
  lineage_id integer NOT NULL,
  user_id bigint NOT NULL REFERENCES app_user (id),
  recharge_id bigint NOT NULL UNIQUE REFERENCES user_recharge (id),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  deposit_amount numeric(38, 18) NOT NULL,
  rate numeric(12, 8) NOT NULL,
  amount numeric(38, 18) NOT NULL CHECK (amount > 0),
  entry_id bigint NOT NULL REFERENCES ledger_entry (id),
  paid_at timestamptz NOT NULL,
  UNIQUE (lineage_id, user_id)
);
CREATE INDEX reward_tier_payout_user_idx ON reward_tier_payout (user_id, id DESC);

-- What the evaluation reads: a user's approved deposits, live trades and invitees.
CREATE INDEX IF NOT EXISTS user_recharge_reviewed_idx ON user_recharge (reviewed_at) WHERE status = 1;
CREATE INDEX IF NOT EXISTS app_user_inviter_idx ON app_user (inviter_id) WHERE inviter_id IS NOT NULL;
