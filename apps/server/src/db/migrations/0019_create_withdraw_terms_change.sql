-- Withdrawal terms only get worse with notice (PRODUCT section 1.9). A saved change that makes
-- withdrawing harder (a higher minimum, a lower maximum or daily limit, a higher fee rate or fixed
-- fee, hiding a channel unless another as good stays visible) is kept here, announced from announced_at,
-- and in force from effective_at (announced_at plus WITHDRAW_TERMS_NOTICE_HOURS). Until then
-- withdraw_channel keeps the value in force. From effective_at on, every reader applies the change
-- itself, so no scheduler is needed and every instance agrees; the next save of a channel of that
-- currency writes it into withdraw_channel and sets applied_at. A save before effective_at may
-- cancel it (cancelled_at). Values are decimals: amounts, the fee rate as a fraction, and for
-- isVisible 1 shown / 0 hidden. Requests already submitted keep the amount and fee they were
-- submitted with (user_withdraw), whatever happens here.
CREATE TABLE withdraw_terms_change (
  id bigserial PRIMARY KEY,
  channel_id integer NOT NULL REFERENCES withdraw_channel (id),
  term text NOT NULL CHECK (term IN ('minAmount', 'maxAmount', 'dailyLimit', 'feeRate', 'fixedFee', 'isVisible')),
  old_value numeric(38, 18) NOT NULL CHECK (old_value >= 0),
  new_value numeric(38, 18) NOT NULL CHECK (new_value >= 0),
  announced_at timestamptz NOT NULL,
  effective_at timestamptz NOT NULL,
  applied_at timestamptz,
  cancelled_at timestamptz,
  CHECK (old_value <> new_value),
  CHECK (term <> 'isVisible' OR (old_value = 1 AND new_value = 0)),
  CHECK (effective_at > announced_at),
  CHECK (applied_at IS NULL OR cancelled_at IS NULL),
  CHECK (applied_at IS NULL OR applied_at >= effective_at),
  CHECK (cancelled_at IS NULL OR cancelled_at < effective_at)
);
-- At most one open change per term of a channel.
CREATE UNIQUE INDEX withdraw_terms_change_open_key ON withdraw_terms_change (channel_id, term)
  WHERE applied_at IS NULL AND cancelled_at IS NULL;
-- The public list: what is announced or took effect lately.
CREATE INDEX withdraw_terms_change_effective_idx ON withdraw_terms_change (effective_at)
  WHERE cancelled_at IS NULL;
