-- after migration 0035
--
-- Referral: the ancestry of a new user, and the fee outbox. Their single current definition; the
-- server applies this file after the migrations whenever its checksum changes (db/migrate.ts,
-- ADR 0007).
--
-- Why triggers: the ancestry must be written by every path that creates a user, and a fee row by
-- every path that charges a fee, in the same transaction. The trading books charge fees in many
-- places, several of them set-based SQL (contract_open_many, fills of many resting orders in one
-- UPDATE); a trigger on the rows those paths write covers them all without touching trading code,
-- and costs nothing on the demo book (the WHEN clauses keep demo rows from even calling it).

-- A new user's ancestry: the inviter at depth 1 and the inviter's own ancestors one level deeper,
-- up to depth 3. A new user has no descendants, so no cycle can arise.
CREATE OR REPLACE FUNCTION referral_ancestry_of_new_user() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.inviter_id IS NOT NULL AND NEW.inviter_id <> NEW.id THEN
    INSERT INTO referral_ancestry (ancestor_id, descendant_id, depth)
    SELECT NEW.inviter_id, NEW.id, 1
    UNION ALL
    SELECT a.ancestor_id, NEW.id, a.depth + 1
      FROM referral_ancestry a
     WHERE a.descendant_id = NEW.inviter_id AND a.depth < 3;
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS referral_ancestry_of_new_user ON app_user;
CREATE TRIGGER referral_ancestry_of_new_user AFTER INSERT ON app_user
  FOR EACH ROW WHEN (NEW.inviter_id IS NOT NULL)
  EXECUTE FUNCTION referral_ancestry_of_new_user();

-- One fee a live user paid: written only when the payer was invited (the primary key of the
-- ancestry, one index probe) and the fee is positive; the same source twice writes once.
CREATE OR REPLACE FUNCTION referral_fee_charged(
  p_payer bigint, p_source_type text, p_source_id bigint, p_order_no text, p_currency integer,
  p_fee numeric, p_at timestamptz
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF p_fee IS NULL OR p_fee <= 0 THEN
    RETURN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM referral_ancestry WHERE descendant_id = p_payer AND depth = 1) THEN
    RETURN;
  END IF;
  INSERT INTO referral_fee_charge
    (payer_id, source_type, source_id, order_no, currency_id, fee, charged_at)
  VALUES (p_payer, p_source_type, p_source_id, p_order_no, p_currency, p_fee, p_at)
  ON CONFLICT (source_type, source_id) DO NOTHING;
END;
$$;

-- Contracts: the open fee when the position opens (at market, or a resting entry filling: status
-- 0 -> 1), the close fee when it closes (-> 2, by its owner, a level or a liquidation). A resting
-- entry cancelled (0 -> 3) paid nothing. A part split off by a partial close (parent_id, migration
-- 0043) is inserted closed with its share of an open fee its position paid already: only its
-- close fee is new.
CREATE OR REPLACE FUNCTION referral_contract_fee() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN (1, 2) AND (TG_OP = 'INSERT' OR OLD.status = 0) AND NEW.parent_id IS NULL THEN
    PERFORM referral_fee_charged(NEW.user_id, 'contract_open', NEW.id, NEW.order_no,
      NEW.currency_id, NEW.open_fee, COALESCE(NEW.opened_at, NEW.created_at));
  END IF;
  IF NEW.status = 2 AND (TG_OP = 'INSERT' OR OLD.status <> 2) THEN
    PERFORM referral_fee_charged(NEW.user_id, 'contract_close', NEW.id, NEW.order_no,
      NEW.currency_id, NEW.close_fee, COALESCE(NEW.closed_at, NEW.created_at));
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS referral_contract_fee ON contract_position;
CREATE TRIGGER referral_contract_fee AFTER INSERT OR UPDATE OF status ON contract_position
  FOR EACH ROW WHEN (NEW.book = 'live' AND NEW.status IN (1, 2))
  EXECUTE FUNCTION referral_contract_fee();

-- Spot (position type 2) and coin-to-coin (3): the fee of a fill (at market: inserted filled; a
-- resting order: status 0 -> 1, with the fee it actually paid).
CREATE OR REPLACE FUNCTION referral_spot_fee() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR OLD.status <> 1 THEN
    PERFORM referral_fee_charged(NEW.user_id,
      CASE NEW.position_type WHEN 2 THEN 'spot' ELSE 'bibi' END, NEW.id, NEW.order_no,
      NEW.currency_id, NEW.fee, COALESCE(NEW.filled_at, NEW.created_at));
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS referral_spot_fee ON spot_order;
CREATE TRIGGER referral_spot_fee AFTER INSERT OR UPDATE OF status ON spot_order
  FOR EACH ROW WHEN (NEW.book = 'live' AND NEW.status = 1)
  EXECUTE FUNCTION referral_spot_fee();

-- Fast trades: the fee is paid when the order is placed.
CREATE OR REPLACE FUNCTION referral_fast_fee() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM referral_fee_charged(NEW.user_id, 'fast', NEW.id, NEW.order_no, NEW.currency_id,
    NEW.fee, NEW.created_at);
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS referral_fast_fee ON fast_trade_order;
CREATE TRIGGER referral_fast_fee AFTER INSERT ON fast_trade_order
  FOR EACH ROW WHEN (NEW.book = 'live' AND NEW.fee > 0)
  EXECUTE FUNCTION referral_fast_fee();
