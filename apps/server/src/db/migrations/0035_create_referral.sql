-- Team and referral (issue 22): who invited whom up to three levels up, the commission terms with
-- their history, the trading fees invitees paid (an outbox the commission worker reads), the
-- commissions paid (or withheld) per fee and level, and the inviters whose commissions are frozen.

-- The ancestry as a closure table: one row per (ancestor, descendant) up to depth 3. A user's
-- level-N members are one range of the (ancestor_id, depth, descendant_id) index, newest first,
-- however large the tree. Each user has at most one ancestor per depth (the primary key), and a
-- user is never their own ancestor (a new user has no descendants, so no cycle can arise).
CREATE TABLE referral_ancestry (
  ancestor_id bigint NOT NULL REFERENCES app_user (id),
  descendant_id bigint NOT NULL REFERENCES app_user (id),
  depth smallint NOT NULL CHECK (depth BETWEEN 1 AND 3),
  PRIMARY KEY (descendant_id, depth),
  CONSTRAINT referral_ancestry_not_self CHECK (ancestor_id <> descendant_id)
);
CREATE INDEX referral_ancestry_level_idx ON referral_ancestry (ancestor_id, depth, descendant_id DESC);

-- The users registered before this migration: their ancestry from app_user.inviter_id.
INSERT INTO referral_ancestry (ancestor_id, descendant_id, depth)
WITH RECURSIVE chain (descendant_id, ancestor_id, depth) AS (
  SELECT id, inviter_id, 1 FROM app_user WHERE inviter_id IS NOT NULL AND inviter_id <> id
  UNION ALL
  SELECT c.descendant_id, u.inviter_id, c.depth + 1
    FROM chain c JOIN app_user u ON u.id = c.ancestor_id
   WHERE u.inviter_id IS NOT NULL AND c.depth < 3 AND u.inviter_id <> c.descendant_id
)
SELECT ancestor_id, descendant_id, depth FROM chain;

-- The commission terms: how many levels are paid and each level's share of a fee. A change is a
-- new row in force from its time on (never backwards); a fee is paid at the terms in force when it
-- was charged. No row: no commission.
CREATE TABLE referral_terms (
  id serial PRIMARY KEY,
  levels smallint NOT NULL CHECK (levels BETWEEN 1 AND 3),
  rate_1 numeric(12, 8) NOT NULL CHECK (rate_1 >= 0 AND rate_1 <= 0.5),
  rate_2 numeric(12, 8) NOT NULL DEFAULT 0 CHECK (rate_2 >= 0 AND rate_2 <= 0.5),
  rate_3 numeric(12, 8) NOT NULL DEFAULT 0 CHECK (rate_3 >= 0 AND rate_3 <= 0.5),
  effective_from timestamptz NOT NULL UNIQUE,
  operator_id bigint NOT NULL REFERENCES operator (id),
  created_at timestamptz NOT NULL,
  CHECK (rate_1 + rate_2 + rate_3 <= 1),
  CHECK (levels >= 2 OR rate_2 = 0),
  CHECK (levels >= 3 OR rate_3 = 0)
);

-- A trading fee an invitee paid on the live book, written by the triggers of the trading tables
-- (modules/referral/sql/referral.sql) in the fee's own transaction; the commission worker pays it
-- out and marks it processed.
CREATE TABLE referral_fee_charge (
  id bigserial PRIMARY KEY,
  payer_id bigint NOT NULL REFERENCES app_user (id),
  -- contract_open, contract_close, spot, bibi (coin-to-coin), fast
  source_type text NOT NULL
    CHECK (source_type IN ('contract_open', 'contract_close', 'spot', 'bibi', 'fast')),
  source_id bigint NOT NULL,
  order_no text NOT NULL,
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  fee numeric(38, 18) NOT NULL CHECK (fee > 0),
  charged_at timestamptz NOT NULL,
  processed_at timestamptz,
  UNIQUE (source_type, source_id)
);
CREATE INDEX referral_fee_charge_pending_idx ON referral_fee_charge (id) WHERE processed_at IS NULL;

-- A commission per (fee, level): paid to the inviter through the ledger (status 1, with its
-- entry), or withheld (2) while the inviter's commissions were frozen.
CREATE TABLE referral_commission (
  id bigserial PRIMARY KEY,
  charge_id bigint NOT NULL REFERENCES referral_fee_charge (id),
  level smallint NOT NULL CHECK (level BETWEEN 1 AND 3),
  inviter_id bigint NOT NULL REFERENCES app_user (id),
  payer_id bigint NOT NULL REFERENCES app_user (id),
  source_type text NOT NULL,
  source_id bigint NOT NULL,
  order_no text NOT NULL,
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  fee numeric(38, 18) NOT NULL,
  rate numeric(12, 8) NOT NULL,
  amount numeric(38, 18) NOT NULL CHECK (amount > 0),
  status smallint NOT NULL CHECK (status IN (1, 2)),
  entry_id bigint REFERENCES ledger_entry (id),
  charged_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (charge_id, level),
  CHECK ((status = 1) = (entry_id IS NOT NULL))
);
CREATE INDEX referral_commission_inviter_idx ON referral_commission (inviter_id, id DESC);
CREATE INDEX referral_commission_created_idx ON referral_commission (created_at);

-- Inviters whose commissions an operator froze for abuse, with the reason (audited).
CREATE TABLE referral_freeze (
  user_id bigint PRIMARY KEY REFERENCES app_user (id),
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  operator_id bigint NOT NULL REFERENCES operator (id),
  frozen_at timestamptz NOT NULL
);
