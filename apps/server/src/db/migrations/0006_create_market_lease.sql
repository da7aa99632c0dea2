-- Which server instance runs the market feed when several share a database (PRODUCT section 10):
-- the holder renews its lease; when it stops renewing, another takes over once it expires.
CREATE TABLE market_lease (
  name text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
);
