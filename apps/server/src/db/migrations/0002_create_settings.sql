-- Platform configuration read at app launch (SEED-SPEC section 7).

CREATE TABLE platform_currency (
  id integer PRIMARY KEY,
  currency_name text NOT NULL UNIQUE CHECK (currency_name ~ '^[A-Z0-9]{2,10}$'),
  -- 1 fiat, 2 crypto
  currency_type smallint NOT NULL CHECK (currency_type IN (1, 2)),
  -- Networks a wallet address may use, slash-separated ("ERC20/TRC20"); empty for fiat.
  wallet_address_type text NOT NULL DEFAULT '',
  -- Decimals kept for amounts of this currency.
  scale smallint NOT NULL CHECK (scale BETWEEN 0 AND 18),
  icon text NOT NULL DEFAULT '',
  sort integer NOT NULL DEFAULT 0,
  is_visible smallint NOT NULL DEFAULT 1 CHECK (is_visible IN (0, 1))
);

-- Key/value settings: site information, otherValue, and so on.
CREATE TABLE site_setting (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE switch_set (
  switch_name text PRIMARY KEY,
  status smallint NOT NULL CHECK (status IN (0, 1)),
  remark text NOT NULL DEFAULT ''
);

-- Tip texts: content per language key.
CREATE TABLE text_lang (
  id serial PRIMARY KEY,
  remark text NOT NULL UNIQUE,
  content_lang jsonb NOT NULL,
  content_visible_flag smallint NOT NULL DEFAULT 1 CHECK (content_visible_flag IN (0, 1)),
  sort integer NOT NULL DEFAULT 0
);

CREATE TABLE order_fee_setting (
  id serial PRIMARY KEY,
  product_type smallint NOT NULL CHECK (product_type IN (1, 2, 3, 4)),
  position_type smallint NOT NULL CHECK (position_type IN (0, 1, 2, 3)),
  ex_type smallint NOT NULL CHECK (ex_type IN (1, 2)),
  fee_rate numeric(12, 8) NOT NULL CHECK (fee_rate >= 0 AND fee_rate < 1),
  UNIQUE (product_type, position_type, ex_type)
);

-- Operator overrides of translation messages, merged over the bundled locale files.
CREATE TABLE lang_override (
  lang text NOT NULL,
  msg_key text NOT NULL,
  value text NOT NULL,
  PRIMARY KEY (lang, msg_key)
);

CREATE TABLE pop_up (
  id serial PRIMARY KEY,
  title jsonb NOT NULL,
  content jsonb NOT NULL,
  version integer NOT NULL DEFAULT 1,
  is_show smallint NOT NULL DEFAULT 1 CHECK (is_show IN (0, 1)),
  sort integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Which modules of a page are shown (SEED-SPEC "page config item").
CREATE TABLE app_config (
  id serial PRIMARY KEY,
  page_path text NOT NULL,
  module text NOT NULL,
  is_visible smallint NOT NULL DEFAULT 1 CHECK (is_visible IN (0, 1)),
  description text NOT NULL DEFAULT '',
  sort integer NOT NULL DEFAULT 0,
  UNIQUE (page_path, module)
);

-- The fields of a bank card and which are required.
CREATE TABLE bank_property_config (
  id serial PRIMARY KEY,
  config_type smallint NOT NULL DEFAULT 0,
  property_name text NOT NULL,
  label_key text NOT NULL,
  is_required smallint NOT NULL CHECK (is_required IN (0, 1)),
  input_type text NOT NULL DEFAULT 'text',
  max_length integer NOT NULL DEFAULT 64,
  sort integer NOT NULL DEFAULT 0,
  UNIQUE (config_type, property_name)
);

CREATE TABLE phone_area_code (
  id serial PRIMARY KEY,
  area_code text NOT NULL CHECK (area_code ~ '^[1-9][0-9]{0,3}$'),
  country_code text NOT NULL UNIQUE CHECK (country_code ~ '^[A-Z]{2}$'),
  sort integer NOT NULL DEFAULT 0
);
