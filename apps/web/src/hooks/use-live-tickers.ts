/**
 * Live prices over /ws: `useLiveTickers(type)` follows the conflated list of a product type (one
 * message a second), `useLiveTicker(type, code)` one product tick by tick. Both give the latest
 * tickerInfo by product code; `onResync` runs when updates may have been missed.
 */
import { useEffect, useState } from 'react';
import type { TickerInfo } from '../api/market';
import { subscribe } from '../lib/realtime';

export function useLiveTickers(
  productTypes: readonly number[],
  onResync?: () => void,
): ReadonlyMap<string, TickerInfo> {
  const [tickers, setTickers] = useState<ReadonlyMap<string, TickerInfo>>(new Map());
  const key = productTypes.join(',');
  useEffect(() => {
    const stops = key
      .split(',')
      .filter(Boolean)
      .map((type) =>
        subscribe(
          `tickers:${type}`,
          (data) => {
            const { tickers: updates } = data as {
              tickers: { productCode: string; tickerInfo: TickerInfo }[];
            };
            setTickers((current) => {
              const next = new Map(current);
              for (const update of updates)
                next.set(`${type}:${update.productCode}`, update.tickerInfo);
              return next;
            });
          },
          onResync,
        ),
      );
    return () => stops.forEach((stop) => stop());
  }, [key, onResync]);
  return tickers;
}

export function useLiveTicker(
  productType: number,
  productCode: string,
  onResync?: () => void,
): TickerInfo | undefined {
  const [ticker, setTicker] = useState<TickerInfo>();
  useEffect(() => {
    setTicker(undefined);
    return subscribe(
      `ticker:${productType}:${productCode}`,
      (data) => setTicker((data as { tickerInfo: TickerInfo }).tickerInfo),
      onResync,
    );
  }, [productType, productCode, onResync]);
  return ticker;
}
