-- Loans (issue 23): products, applications reviewed by operators, loans disbursed and repaid
-- through the ledger, their interest day by day, repayments, and the answers of applications.
--
-- Money moves only through the ledger: a disbursement from the platform's `loans` account to the
-- user's available balance, interest and principal back to it. What the user owes is kept on the
-- loan's row (its principal outstanding and interest due), the platform's receivable; the ledger's
-- `loans` account is then, per book and currency, the interest paid less the principal
-- outstanding.

-- The platform account that lends and is repaid.
ALTER TABLE ledger_account DROP CONSTRAINT ledger_account_owner;
ALTER TABLE ledger_account ADD CONSTRAINT ledger_account_owner CHECK (
  (owner_type = 'user' AND owner_id > 0 AND kind IN ('available', 'frozen', 'margin', 'staked', 'loan'))
  OR (owner_type = 'platform' AND owner_id BETWEEN 0 AND 15
      AND kind IN ('external', 'demo_faucet', 'fees', 'house', 'interest', 'rewards', 'loans'))
);

-- A product: its name and description per language (English the fallback), its currency and amount
-- range, its term, the days without interest at its start, one daily rate and one overdue daily
-- rate (published figures, never drawn), how interest is settled (1 daily from the available
-- balance, 2 at repayment), how many of its loans one user may have under review or open, the
-- verified identity level it needs (-1 none, 0 basic, 1 advanced), and the fields an application
-- asks (a JSON list of { key, type: text | number | choice | image, label {lang: text}, required,
-- options [{ value, label }] }). Status 1 open to applications, 0 closed (its loans run on).
CREATE TABLE loan_product (
  id serial PRIMARY KEY,
  name jsonb NOT NULL,
  description jsonb NOT NULL DEFAULT '{}',
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  min_amount numeric(38, 18) NOT NULL CHECK (min_amount > 0),
  max_amount numeric(38, 18) NOT NULL,
  term_days integer NOT NULL CHECK (term_days BETWEEN 1 AND 3650),
  interest_free_days integer NOT NULL CHECK (interest_free_days >= 0),
  daily_rate numeric(12, 8) NOT NULL CHECK (daily_rate >= 0 AND daily_rate <= 0.1),
  overdue_daily_rate numeric(12, 8) NOT NULL CHECK (overdue_daily_rate >= 0 AND overdue_daily_rate <= 0.1),
  settlement smallint NOT NULL CHECK (settlement IN (1, 2)),
  max_open_loans integer NOT NULL CHECK (max_open_loans BETWEEN 1 AND 100),
  min_identity_level smallint NOT NULL CHECK (min_identity_level IN (-1, 0, 1)),
  fields jsonb NOT NULL DEFAULT '[]',
  status smallint NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  created_by bigint,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (max_amount >= min_amount),
  CHECK (interest_free_days <= term_days)
);

-- A loan: an application (status 0 under review), then active (1, disbursed), repaid (2) or
-- rejected (3, with the reason the user reads). Its terms are copied from its product when the
-- user applies. Once disbursed: its first date (day 1) and due date (first date + term), how many
-- of its days are accrued, the principal outstanding, the interest due (accrued, unpaid) and the
-- totals accrued and paid. `book`: the demo account borrows virtual funds in the demo book.
CREATE TABLE loan_order (
  id bigserial PRIMARY KEY,
  order_no text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES app_user (id),
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  product_id integer NOT NULL REFERENCES loan_product (id),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  amount numeric(38, 18) NOT NULL CHECK (amount > 0),
  approved_amount numeric(38, 18) CHECK (approved_amount > 0 AND approved_amount <= amount),
  term_days integer NOT NULL CHECK (term_days >= 1),
  interest_free_days integer NOT NULL CHECK (interest_free_days >= 0),
  daily_rate numeric(12, 8) NOT NULL CHECK (daily_rate >= 0),
  overdue_daily_rate numeric(12, 8) NOT NULL CHECK (overdue_daily_rate >= 0),
  settlement smallint NOT NULL CHECK (settlement IN (1, 2)),
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3)),
  start_date date,
  due_date date,
  accrued_days integer NOT NULL DEFAULT 0 CHECK (accrued_days >= 0),
  principal numeric(38, 18) NOT NULL DEFAULT 0 CHECK (principal >= 0),
  interest_due numeric(38, 18) NOT NULL DEFAULT 0 CHECK (interest_due >= 0),
  interest_accrued numeric(38, 18) NOT NULL DEFAULT 0 CHECK (interest_accrued >= 0),
  interest_paid numeric(38, 18) NOT NULL DEFAULT 0 CHECK (interest_paid >= 0),
  principal_repaid numeric(38, 18) NOT NULL DEFAULT 0 CHECK (principal_repaid >= 0),
  entry_id bigint REFERENCES ledger_entry (id),
  reject_reason text CHECK (length(reject_reason) <= 500),
  request_id text NOT NULL,
  request_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  reviewed_at timestamptz,
  reviewed_by bigint,
  repaid_at timestamptz,
  UNIQUE (user_id, request_id),
  CHECK ((status = 0) = (reviewed_at IS NULL)),
  CHECK (status <> 3 OR reject_reason IS NOT NULL),
  CHECK ((status IN (1, 2)) = (approved_amount IS NOT NULL)),
  CHECK ((status IN (1, 2)) = (start_date IS NOT NULL AND due_date IS NOT NULL AND entry_id IS NOT NULL)),
  CHECK (status <> 2 OR (principal = 0 AND interest_due = 0 AND repaid_at IS NOT NULL)),
  CHECK (principal + principal_repaid = coalesce(approved_amount, 0)),
  CHECK (interest_due + interest_paid = interest_accrued)
);
CREATE INDEX loan_order_user_idx ON loan_order (user_id, book, id DESC);
CREATE INDEX loan_order_status_idx ON loan_order (status, id);
CREATE INDEX loan_order_open_idx ON loan_order (product_id, user_id, book) WHERE status IN (0, 1);
-- The daily run reads the active loans in id order, batch by batch.
CREATE INDEX loan_order_active_idx ON loan_order (id) WHERE status = 1;

-- The answers of an application to its product's fields, as they were asked (the label kept): a
-- text, a number, a choice's value, or an image (re-encoded JPEG bytes, read only by finance
-- operators through the console, each view audited).
CREATE TABLE loan_answer (
  loan_id bigint NOT NULL REFERENCES loan_order (id),
  field_key text NOT NULL CHECK (length(field_key) BETWEEN 1 AND 32),
  field_type text NOT NULL CHECK (field_type IN ('text', 'number', 'choice', 'image')),
  label jsonb NOT NULL,
  value text CHECK (length(value) <= 500),
  mime text CHECK (mime = 'image/jpeg'),
  width integer CHECK (width > 0),
  height integer CHECK (height > 0),
  sha256 text,
  data bytea,
  PRIMARY KEY (loan_id, field_key),
  CHECK ((field_type = 'image') = (data IS NOT NULL)),
  CHECK ((field_type = 'image') = (value IS NULL))
);

-- A loan's interest of one day: once per (loan, day), written in the transaction that adds it to
-- the loan's interest due (and, with daily settlement, takes what the balance covers: `settled`,
-- in the ledger entry `entry_id`). Day 1 is the date the loan was disbursed.
CREATE TABLE loan_interest_record (
  id bigserial PRIMARY KEY,
  loan_id bigint NOT NULL REFERENCES loan_order (id),
  day date NOT NULL,
  day_number integer NOT NULL CHECK (day_number >= 1),
  kind text NOT NULL CHECK (kind IN ('free', 'normal', 'overdue')),
  principal numeric(38, 18) NOT NULL CHECK (principal >= 0),
  rate numeric(12, 8) NOT NULL CHECK (rate >= 0),
  amount numeric(38, 18) NOT NULL CHECK (amount >= 0),
  settled numeric(38, 18) NOT NULL DEFAULT 0 CHECK (settled >= 0),
  entry_id bigint REFERENCES ledger_entry (id),
  created_at timestamptz NOT NULL,
  UNIQUE (loan_id, day),
  UNIQUE (loan_id, day_number),
  CHECK ((settled > 0) = (entry_id IS NOT NULL))
);

-- A repayment from the available balance: interest first, then principal, once per request id.
CREATE TABLE loan_repayment (
  id bigserial PRIMARY KEY,
  order_no text NOT NULL UNIQUE,
  loan_id bigint NOT NULL REFERENCES loan_order (id),
  user_id bigint NOT NULL REFERENCES app_user (id),
  book text NOT NULL CHECK (book IN ('live', 'demo')),
  currency_id integer NOT NULL REFERENCES platform_currency (id),
  amount numeric(38, 18) NOT NULL CHECK (amount > 0),
  interest numeric(38, 18) NOT NULL CHECK (interest >= 0),
  principal numeric(38, 18) NOT NULL CHECK (principal >= 0),
  interest_left numeric(38, 18) NOT NULL CHECK (interest_left >= 0),
  principal_left numeric(38, 18) NOT NULL CHECK (principal_left >= 0),
  entry_id bigint NOT NULL REFERENCES ledger_entry (id),
  request_id text NOT NULL,
  request_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, request_id),
  CHECK (amount = interest + principal)
);
CREATE INDEX loan_repayment_loan_idx ON loan_repayment (loan_id, id DESC);
CREATE INDEX loan_repayment_user_idx ON loan_repayment (user_id, book, id DESC);
