-- What users read of a deposit or withdrawal channel, in the app's languages: the operator's
-- texts by language key ({"en": "…", "fr": "…"}), English the fallback, empty ({}) when the
-- operator wrote one text for every language (then the plain column is read, as before). The
-- plain columns stay the English text.
--
-- is_example marks the seed's example channels of a fresh installation (its bank account and
-- deposit addresses are not the platform's): the app badges them until an operator saves the
-- channel, which clears the mark. The seed (seedV4) marks them and writes their texts.
ALTER TABLE recharge_channel
  ADD COLUMN channel_name_lang jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(channel_name_lang) = 'object'),
  ADD COLUMN remark_lang jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(remark_lang) = 'object'),
  ADD COLUMN bank_name_lang jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(bank_name_lang) = 'object'),
  ADD COLUMN account_name_lang jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(account_name_lang) = 'object'),
  ADD COLUMN is_example smallint NOT NULL DEFAULT 0 CHECK (is_example IN (0, 1));

ALTER TABLE withdraw_channel
  ADD COLUMN channel_name_lang jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(channel_name_lang) = 'object'),
  ADD COLUMN remark_lang jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(remark_lang) = 'object'),
  ADD COLUMN is_example smallint NOT NULL DEFAULT 0 CHECK (is_example IN (0, 1));
