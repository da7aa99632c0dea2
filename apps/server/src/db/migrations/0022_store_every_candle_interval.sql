-- Every candle interval is stored as it grows, not only minutes and days: a 1h or 4h chart
-- aggregated from two days of minutes had 49 or 13 candles, and reading 300 of them would mean
-- aggregating up to 72,000 minutes per request. The minutes and days already stored are
-- aggregated into the other intervals once, here.
ALTER TABLE market_candle DROP CONSTRAINT market_candle_resolution_check;
ALTER TABLE market_candle ADD CONSTRAINT market_candle_resolution_check
  CHECK (resolution IN ('1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'));

INSERT INTO market_candle (product_id, resolution, open_time, open, high, low, close, volume, amount)
SELECT c.product_id, i.resolution,
  CASE
    WHEN i.seconds IS NOT NULL
      THEN to_timestamp(floor(extract(epoch FROM c.open_time) / i.seconds) * i.seconds)
    ELSE date_trunc(i.unit, c.open_time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
  END AS bucket,
  (array_agg(c.open ORDER BY c.open_time))[1],
  max(c.high), min(c.low),
  (array_agg(c.close ORDER BY c.open_time DESC))[1],
  sum(c.volume), sum(c.amount)
FROM market_candle c
JOIN (VALUES ('5m', '1m', 300, NULL), ('15m', '1m', 900, NULL), ('30m', '1m', 1800, NULL),
             ('1h', '1m', 3600, NULL), ('4h', '1m', 14400, NULL),
             ('1w', '1d', NULL, 'week'), ('1M', '1d', NULL, 'month'))
  AS i (resolution, source, seconds, unit) ON c.resolution = i.source
GROUP BY c.product_id, i.resolution, bucket
ON CONFLICT (product_id, resolution, open_time) DO NOTHING;
