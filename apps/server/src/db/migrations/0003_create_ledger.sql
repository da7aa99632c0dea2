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

CREATE FUNCTION ledger_forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'LG009', MESSAGE = 'ledger entries and postings are append-only';
END
$$;
CREATE TRIGGER ledger_entry_append_only BEFORE UPDATE OR DELETE ON ledger_entry
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE TRIGGER ledger_posting_append_only BEFORE UPDATE OR DELETE ON ledger_posting
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE TRIGGER ledger_account_never_deleted BEFORE DELETE ON ledger_account
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();

-- Posts one balanced entry in a single round trip.
--
-- Accounts are named by (owner type, owner id, currency, kind) and created on first use.
-- They are locked in id order, so concurrent entries over the same accounts queue up instead of
-- deadlocking. A user balance that would go negative violates ledger_account_not_negative.
-- Error codes: LG001 malformed entry (a bug: unbalanced, zero amount, repeated account),
-- LG003 request id reused with a different request, 23514 on ledger_account_not_negative
-- insufficient funds. A repeated request id with the same request returns the first entry's
-- postings with duplicate = true.
CREATE FUNCTION ledger_post(
  p_book text,
  p_scope text,
  p_request_id text,
  p_request_hash text,
  p_entry_type text,
  p_ref_type text,
  p_ref_id text,
  p_memo text,
  p_owner_types text[],
  p_owner_ids bigint[],
  p_currency_ids integer[],
  p_kinds text[],
  p_amounts numeric[]
) RETURNS TABLE (
  entry_id bigint,
  duplicate boolean,
  account_id bigint,
  owner_type text,
  owner_id bigint,
  currency_id integer,
  kind text,
  amount numeric,
  balance_after numeric
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_entry_id bigint;
  v_hash text;
  v_size integer := coalesce(array_length(p_amounts, 1), 0);
  v_ids bigint[];
  v_balances numeric[];
  v_total numeric;
BEGIN
  IF v_size < 2
     OR coalesce(array_length(p_owner_types, 1), 0) <> v_size
     OR coalesce(array_length(p_owner_ids, 1), 0) <> v_size
     OR coalesce(array_length(p_currency_ids, 1), 0) <> v_size
     OR coalesce(array_length(p_kinds, 1), 0) <> v_size THEN
    RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: an entry needs two or more postings';
  END IF;
  -- Checked with plain expressions (no SQL statements): every amount non-zero, no account twice,
  -- every currency balancing to zero.
  FOR i IN 1 .. v_size LOOP
    IF p_amounts[i] IS NULL OR p_amounts[i] = 0 THEN
      RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: a posting amount is zero or missing';
    END IF;
    v_total := 0;
    FOR j IN 1 .. v_size LOOP
      IF p_currency_ids[j] = p_currency_ids[i] THEN
        v_total := v_total + p_amounts[j];
        IF j > i AND p_owner_types[j] = p_owner_types[i] AND p_owner_ids[j] = p_owner_ids[i] AND p_kinds[j] = p_kinds[i] THEN
          RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: an account appears twice in one entry';
        END IF;
      END IF;
    END LOOP;
    IF v_total <> 0 THEN
      RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: the entry does not balance per currency';
    END IF;
  END LOOP;

  IF p_request_id IS NULL THEN
    INSERT INTO ledger_entry (book, scope, request_id, request_hash, entry_type, ref_type, ref_id, memo)
    VALUES (p_book, p_scope, NULL, p_request_hash, p_entry_type, p_ref_type, p_ref_id, p_memo)
    RETURNING id INTO v_entry_id;
  ELSE
    INSERT INTO ledger_entry (book, scope, request_id, request_hash, entry_type, ref_type, ref_id, memo)
    VALUES (p_book, p_scope, p_request_id, p_request_hash, p_entry_type, p_ref_type, p_ref_id, p_memo)
    ON CONFLICT (scope, request_id) WHERE request_id IS NOT NULL DO NOTHING
    RETURNING id INTO v_entry_id;
    IF v_entry_id IS NULL THEN
      SELECT e.id, e.request_hash INTO v_entry_id, v_hash
        FROM ledger_entry e WHERE e.scope = p_scope AND e.request_id = p_request_id;
      IF v_hash IS DISTINCT FROM p_request_hash THEN
        RAISE EXCEPTION USING ERRCODE = 'LG003', MESSAGE = 'hint_requestIdReused';
      END IF;
      RETURN QUERY
        SELECT p.entry_id, true, p.account_id, a.owner_type, a.owner_id, a.currency_id, a.kind, p.amount, p.balance_after
        FROM ledger_posting p JOIN ledger_account a ON a.id = p.account_id
        WHERE p.entry_id = v_entry_id ORDER BY p.line;
      RETURN;
    END IF;
  END IF;

  -- Resolve and lock the accounts (in id order), creating those used for the first time.
  FOR attempt IN 1 .. 2 LOOP
    SELECT array_agg(l.id ORDER BY l.ord) INTO v_ids FROM (
      SELECT a.id, d.ord
      FROM unnest(p_owner_types, p_owner_ids, p_currency_ids, p_kinds) WITH ORDINALITY AS d (owner_type, owner_id, currency_id, kind, ord)
      JOIN ledger_account a
        ON a.book = p_book AND a.owner_type = d.owner_type AND a.owner_id = d.owner_id
       AND a.currency_id = d.currency_id AND a.kind = d.kind
      ORDER BY a.id
      FOR UPDATE OF a
    ) l;
    EXIT WHEN coalesce(array_length(v_ids, 1), 0) = v_size;
    INSERT INTO ledger_account (book, owner_type, owner_id, currency_id, kind, allow_negative)
    SELECT DISTINCT p_book, d.owner_type, d.owner_id, d.currency_id, d.kind, d.owner_type = 'platform'
    FROM unnest(p_owner_types, p_owner_ids, p_currency_ids, p_kinds) AS d (owner_type, owner_id, currency_id, kind)
    ON CONFLICT (book, owner_type, owner_id, currency_id, kind) DO NOTHING;
  END LOOP;

  -- Apply the postings; the not-negative check refuses an overdraft here.
  WITH updated AS (
    UPDATE ledger_account a SET balance = a.balance + d.amount
    FROM unnest(v_ids, p_amounts) AS d (id, amount)
    WHERE a.id = d.id
    RETURNING a.id, a.balance
  )
  SELECT array_agg(u.balance ORDER BY d.ord) INTO v_balances
  FROM unnest(v_ids) WITH ORDINALITY AS d (id, ord) JOIN updated u ON u.id = d.id;
  IF coalesce(array_length(v_balances, 1), 0) <> v_size THEN
    RAISE EXCEPTION USING ERRCODE = 'LG001', MESSAGE = 'ledger: an account of the entry could not be resolved';
  END IF;

  INSERT INTO ledger_posting (entry_id, line, account_id, amount, balance_after)
  SELECT v_entry_id, d.line, d.id, d.amount, d.balance
  FROM unnest(v_ids, p_amounts, v_balances) WITH ORDINALITY AS d (id, amount, balance, line);

  RETURN QUERY
    SELECT v_entry_id, false, d.id, d.owner_type, d.owner_id, d.currency_id, d.kind, d.amount, d.balance
    FROM unnest(v_ids, p_owner_types, p_owner_ids, p_currency_ids, p_kinds, p_amounts, v_balances)
         AS d (id, owner_type, owner_id, currency_id, kind, amount, balance);
END
$$;
