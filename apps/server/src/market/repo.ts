/** SQL of the market: the catalogue, candles and favourites. */
import { normalize } from '@bourse/shared';
import { allRows, type Queryable } from '../db/database';
import type { Candle, CandleInterval, CatalogueProduct } from './types';

export interface ProductRow {
  id: number;
  product_type: number;
  product_code: string;
  product_name_lang: Record<string, string>;
  product_desc: string;
  product_img: string;
  position_types: number[];
  is_visible: number;
  sort: number;
  is_lock: number;
  is_show: number;
  is_self_sell: number;
  standard: string;
  price_scale: number;
  leverages: number[];
  session: CatalogueProduct['session'];
  source_symbol: string;
  reference_price: string;
  volatility: string;
  daily_volume: string;
  recommended: number;
  /** Equity at or below notional × this liquidates a contract. */
  maintenance_rate: string;
}

/** Position types a product of each type can be traded with. */
export function positionTypesOf(productType: number): number[] {
  if (productType === 2) return [0, 1, 2, 3];
  if (productType === 1) return [0, 1, 2];
  return [0, 1];
}

/** Adds the catalogue's products that are not there yet; the operator's changes stay. */
export async function insertCatalogue(
  q: Queryable,
  products: readonly CatalogueProduct[],
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO product (product_type, product_code, product_name_lang, product_desc, position_types,
       sort, standard, price_scale, leverages, session, source_symbol, reference_price, volatility,
       daily_volume, recommended)
     SELECT d.product_type, d.product_code, d.names::jsonb, d.description,
       -- Coin to coin (3) moves the pair's coin in the wallet: only when it is a wallet currency.
       CASE WHEN d.product_type = 2 AND NOT EXISTS (
              SELECT 1 FROM platform_currency c WHERE c.currency_name || 'USDT' = d.product_code)
         THEN array_remove(string_to_array(d.position_types, ',')::smallint[], 3::smallint)
         ELSE string_to_array(d.position_types, ',')::smallint[] END,
       d.sort, d.standard, d.price_scale,
       string_to_array(d.leverages, ',')::integer[], d.session, d.source_symbol, d.reference_price,
       d.volatility, d.daily_volume, d.recommended
     FROM jsonb_to_recordset($1::jsonb) AS d (product_type smallint, product_code text, names text,
       description text, position_types text, sort integer, standard numeric, price_scale smallint,
       leverages text, session text, source_symbol text, reference_price numeric,
       volatility numeric, daily_volume numeric, recommended smallint)
     ON CONFLICT (product_type, product_code) DO NOTHING
     RETURNING id`,
    [
      JSON.stringify(
        products.map((product) => ({
          product_type: product.productType,
          product_code: product.code,
          names: JSON.stringify(product.names),
          description: product.description,
          position_types: positionTypesOf(product.productType).join(','),
          sort: product.sort,
          standard: product.lotSize,
          price_scale: product.priceScale,
          leverages: product.leverages.join(','),
          session: product.session,
          source_symbol: product.sourceSymbol ?? product.code,
          reference_price: product.referencePrice,
          volatility: String(product.volatility),
          daily_volume: product.dailyVolume,
          recommended: product.recommended ? 1 : 0,
        })),
      ),
    ],
  );
  return rows.length;
}

const PRODUCT_COLUMNS = `id, product_type, product_code, product_name_lang, product_desc, product_img,
  position_types, is_visible, sort, is_lock, is_show, is_self_sell, standard::text AS standard,
  price_scale, leverages, session, source_symbol, reference_price::text AS reference_price,
  volatility::text AS volatility, daily_volume::text AS daily_volume, recommended,
  maintenance_rate::text AS maintenance_rate`;

export function allProducts(q: Queryable) {
  return allRows<ProductRow>(
    q,
    `SELECT ${PRODUCT_COLUMNS} FROM product ORDER BY product_type, sort, id`,
  );
}

/** The newest product's id (products are only ever added): a cheap check for one listed. */
export async function latestProductId(q: Queryable): Promise<number | undefined> {
  const { rows } = await q.query<{ id: number | null }>('SELECT max(id) AS id FROM product');
  return rows[0]?.id ?? undefined;
}

export async function favouriteProductIds(q: Queryable, userId: number): Promise<Set<number>> {
  const { rows } = await q.query<{ product_id: number }>(
    'SELECT product_id FROM user_product_option WHERE user_id = $1 ORDER BY created_at, product_id',
    [userId],
  );
  return new Set(rows.map((row) => row.product_id));
}

/** True when added, false when it was a favourite already. */
export async function addFavourite(
  q: Queryable,
  userId: number,
  productId: number,
): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO user_product_option (user_id, product_id) VALUES ($1, $2)
     ON CONFLICT DO NOTHING RETURNING product_id`,
    [userId, productId],
  );
  return rows.length > 0;
}

export async function removeFavourite(
  q: Queryable,
  userId: number,
  productId: number,
): Promise<boolean> {
  const { rows } = await q.query(
    'DELETE FROM user_product_option WHERE user_id = $1 AND product_id = $2 RETURNING product_id',
    [userId, productId],
  );
  return rows.length > 0;
}

export async function countFavourites(q: Queryable, userId: number): Promise<number> {
  const { rows } = await q.query<{ count: string }>(
    'SELECT count(*)::text AS count FROM user_product_option WHERE user_id = $1',
    [userId],
  );
  return Number(rows[0]?.count ?? 0);
}

// ---------------------------------------------------------------- candles

export interface StoredCandle {
  productId: number;
  resolution: CandleInterval;
  candle: Candle;
}

/** Writes candles (new or grown) in one statement. */
export async function upsertCandles(q: Queryable, candles: readonly StoredCandle[]): Promise<void> {
  if (candles.length === 0) return;
  await q.query(
    `INSERT INTO market_candle (product_id, resolution, open_time, open, high, low, close, volume, amount)
     SELECT d.product_id, d.resolution, to_timestamp(d.open_time / 1000.0), d.open, d.high, d.low,
       d.close, d.volume, d.amount
     FROM jsonb_to_recordset($1::jsonb) AS d (product_id integer, resolution text, open_time bigint,
       open numeric, high numeric, low numeric, close numeric, volume numeric, amount numeric)
     ON CONFLICT (product_id, resolution, open_time) DO UPDATE SET
       high = EXCLUDED.high, low = EXCLUDED.low, close = EXCLUDED.close,
       volume = EXCLUDED.volume, amount = EXCLUDED.amount`,
    [
      JSON.stringify(
        candles.map(({ productId, resolution, candle }) => ({
          product_id: productId,
          resolution,
          open_time: candle.openTime,
          open: candle.open,
          high: candle.high,
          low: candle.low,
          close: candle.close,
          volume: candle.volume,
          amount: candle.amount,
        })),
      ),
    ],
  );
}

export async function hasCandles(q: Queryable, productId: number): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM market_candle WHERE product_id = $1 LIMIT 1', [
    productId,
  ]);
  return rows.length > 0;
}

interface CandleRow {
  open_time: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  amount: string;
}

function toCandle(row: CandleRow): Candle {
  return {
    openTime: Number(row.open_time),
    open: normalize(row.open),
    high: normalize(row.high),
    low: normalize(row.low),
    close: normalize(row.close),
    volume: normalize(row.volume),
    amount: normalize(row.amount),
  };
}

const AMOUNT_COLUMNS = `open::text AS open, high::text AS high, low::text AS low,
  close::text AS close, volume::text AS volume, amount::text AS amount`;

/**
 * Candles of an interval that open before `endTime` (milliseconds), newest first, at most `limit`.
 * Every interval is stored as it grows (migration 0022), so this is one index range scan.
 */
export async function candles(
  q: Queryable,
  productId: number,
  interval: CandleInterval,
  endTime: number,
  limit: number,
): Promise<Candle[]> {
  const { rows } = await q.query<CandleRow>(
    `SELECT (extract(epoch FROM open_time) * 1000)::bigint::text AS open_time, ${AMOUNT_COLUMNS}
     FROM market_candle
     WHERE product_id = $1 AND resolution = $2 AND open_time < to_timestamp($3 / 1000.0)
     ORDER BY market_candle.open_time DESC LIMIT $4`,
    [productId, interval, endTime, limit],
  );
  return rows.map(toCandle);
}
