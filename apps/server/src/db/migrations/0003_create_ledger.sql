-- The double-entry ledger (PRODUCT section 5): the only place where money moves.
--
-- An account belongs to a book (live money, or demo money for paper trading), an owner (a user
-- or the platform), a currency and a kind. User accounts can never go negative; platform
-- accounts are the other side of the world (deposits come from "external") and may.
-- Entries and postings are append-only; a correction is a new entry.

CREATE TABLE ledger_account (
  id bigserial PRIMARY KEY,
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  owner_type text NOT NULL CHECK (owner_type IN ('user', 'platform')),
  owner_id bigint NOT NULL,
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  kind text NOT NULL,
  allow_negative boolean NOT NULL,
  balance numeric(38, 18) NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (book, owner_type, owner_id, currency_id, kind),
  CHECK (allow_negative = (owner_type = 'platform')),
  CONSTRAINT ledger_account_not_negative CHECK (allow_negative OR balance >= 0),
  CHECK (
    (owner_type = 'user' AND owner_id > 0 AND kind IN ('available', 'frozen', 'margin', 'staked', 'loan'))
    OR (owner_type = 'platform' AND owner_id = 0
        AND kind IN ('external', 'demo_faucet', 'fees', 'house', 'interest', 'rewards'))
  )
);

CREATE TABLE ledger_entry (
  id bigserial PRIMARY KEY,
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  -- Whose request it was ('user:42', 'platform'); request ids are unique per scope.
  scope text NOT NULL,
  request_id text CHECK (length(request_id) <= 128),
  -- Fingerprint of what was asked, so a reused request id with a different body is refused.
  request_hash text,
  entry_type text NOT NULL,
  ref_type text,
  ref_id text,
  memo text CHECK (length(memo) <= 500),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX ledger_entry_request_key ON ledger_entry (scope, request_id) WHERE request_id IS NOT NULL;

-- Postings are written only by ledger_post, in the statement that inserts their entry and locks
-- their accounts, and neither entries nor accounts can be deleted; so the hot path skips
-- foreign-key triggers, and ledger:verify checks that no posting lacks its entry or account
-- (ADR 0002).
CREATE TABLE ledger_posting (
  entry_id bigint NOT NULL,
  line smallint NOT NULL,
  account_id bigint NOT NULL,
  amount numeric(38, 18) NOT NULL CHECK (amount <> 0),
  balance_after numeric(38, 18) NOT NULL,
  PRIMARY KEY (entry_id, line)
);
CREATE INDEX ledger_posting_account_idx ON ledger_posting (account_id, entry_id);


-- Frozen funds: pending until captured (paid on) or released (back to available).
CREATE TABLE ledger_hold (
  id bigserial PRIMARY KEY,
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  user_id bigint NOT NULL,
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  amount numeric(38, 18) NOT NULL CHECK (amount > 0),
  remaining numeric(38, 18) NOT NULL CHECK (remaining >= 0 AND remaining <= amount),
  status text NOT NULL CHECK (status IN ('pending', 'captured', 'released')),
  hold_entry_id bigint NOT NULL UNIQUE REFERENCES ledger_entry (id),
  hold_type text NOT NULL,
  ref_type text,
  ref_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  CHECK ((status = 'pending') = (closed_at IS NULL)),
  CHECK (status <> 'pending' OR remaining > 0)
);
CREATE INDEX ledger_hold_user_idx ON ledger_hold (user_id, status);

-- The append-only triggers and ledger_post are in src/ledger/sql/ledger.sql (ADR 0007).
