/** What the trading screens read: the account in use, its balance, the fee table, coins held. */
import { useCallback, useEffect } from 'react';
import { useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { listStateOf, type ListState } from '../../components/status-views';
import { useUser } from '../../hooks/use-user';
import { subscribe } from '../../lib/realtime';
import { fetchBalance, tradeCurrencyId } from '../../lib/trade';
import {
  LIVE_REFRESH_MS,
  TRADING_KEY,
  feeRateOf,
  fetchBibiAssets,
  fetchHoldings,
  fetchSpotOrders,
  ordersKey,
  loadFeeSettings,
  storedBibiAssets,
  storedFees,
  type SpotKind,
  type SpotOrder,
  type SpotOrderQuery,
} from './trading-api';

/** The account in use (live or demo): each has its own balances, positions and orders. */
export function useBook(): number | undefined {
  return useUser().user?.accountType;
}

/** A query of the account in use: `key` then the account is its query key. */
function useBookQuery<T>(
  key: readonly unknown[],
  queryFn: () => Promise<T>,
  options: Omit<UseQueryOptions<T>, 'queryKey' | 'queryFn'>,
) {
  const book = useBook();
  return useQuery<T>({ ...options, queryKey: [...key, book], queryFn });
}

/** The available balance of the trade currency (USDT), when signed in. */
export function useTradeBalance(enabled: boolean) {
  const currencyId = tradeCurrencyId();
  return useBookQuery([TRADING_KEY.balance, currencyId], () => fetchBalance(currencyId), {
    enabled,
  });
}

/** The fee table: the copy launch kept at once, read again behind. */
export function useFees() {
  return useQuery({
    queryKey: [TRADING_KEY.fees],
    queryFn: loadFeeSettings,
    initialData: storedFees,
    initialDataUpdatedAt: 0,
    staleTime: 60_000,
  });
}

/**
 * The fee rate of an order from the fee table, and whether the table is known: before it is, no
 * preview (nor order), as a missing rate is not a zero fee.
 */
export function useFeeRate(
  productType: number,
  positionType: number,
  direction: number,
): { rate: string; known: boolean } {
  const fees = useFees();
  return {
    rate: feeRateOf(fees.data, productType, positionType, direction),
    known: fees.data !== undefined,
  };
}

/**
 * A list of the account in use (`key` then the account is its query key): its rows, and whether
 * they arrived. While `live` says the rows shown may still change (a resting order fills, an open
 * position closes), it is read again every few seconds.
 */
export function useTradingRows<T>(
  key: readonly unknown[],
  fetch: () => Promise<{ rows: T[] }>,
  { live, enabled }: { live?: (rows: readonly T[]) => boolean; enabled?: boolean } = {},
): { rows: T[] } & ListState {
  const query = useBookQuery(key, fetch, {
    enabled,
    refetchInterval:
      live && ((current) => (live(current.state.data?.rows ?? []) ? LIVE_REFRESH_MS : false)),
  });
  return { rows: query.data?.rows ?? [], ...listStateOf(query) };
}

/**
 * Spot or coin-to-coin orders of the account in use (`name` tells the list apart, with the product
 * of the query where it has one), read as `useTradingRows` reads.
 */
export function useSpotOrders(
  kind: SpotKind,
  name: string,
  query: SpotOrderQuery,
  options?: Parameters<typeof useTradingRows<SpotOrder>>[2],
) {
  return useTradingRows(
    [ordersKey(kind), name, ...(query.productCode ? [query.productCode] : [])],
    () => fetchSpotOrders(kind, query),
    options,
  );
}

export function useHoldings(enabled: boolean) {
  return useBookQuery([TRADING_KEY.holdings], fetchHoldings, { enabled });
}

/** The coins held (the copy on the device at once, read again behind). */
export function useBibiAssets(enabled: boolean) {
  return useBookQuery([TRADING_KEY.bibiAssets], fetchBibiAssets, {
    initialData: storedBibiAssets,
    initialDataUpdatedAt: 0,
    enabled,
  });
}

/**
 * After an order, a cancel or a close, or when the user pulls a list down: balances, positions,
 * orders and holdings are read again (resolves when the ones on screen are in).
 */
export function useRefreshTrading(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all(
      [
        TRADING_KEY.balance,
        TRADING_KEY.contracts,
        TRADING_KEY.spotOrders,
        TRADING_KEY.bibiOrders,
        TRADING_KEY.holdings,
        TRADING_KEY.bibiAssets,
        'balances',
      ].map((key) => queryClient.invalidateQueries({ queryKey: [key] })),
    );
  }, [queryClient]);
}

/**
 * While a screen shows the user's trading, the server's private messages (a fill, a close by a
 * take-profit or a liquidation, a cancel) make it read its data again at once.
 */
export function useTradingPush(signedIn: boolean): void {
  const refresh = useRefreshTrading();
  useEffect(() => {
    if (!signedIn) return;
    const stops = ['positions', 'orders', 'balances'].map((topic) =>
      subscribe(topic, refresh, refresh),
    );
    return () => {
      for (const stop of stops) stop();
    };
  }, [signedIn, refresh]);
}
