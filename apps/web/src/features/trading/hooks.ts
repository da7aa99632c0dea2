/** What the trading screens read: the account in use, its balance, the fee table, coins held. */
import { useCallback, useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useUser } from '../../hooks/use-user';
import { subscribe } from '../../lib/realtime';
import { fetchBalance, tradeCurrencyId } from '../../lib/trade';
import {
  TRADING_KEY,
  feeRateOf,
  fetchBibiAssets,
  fetchHoldings,
  loadFeeSettings,
  storedBibiAssets,
  storedFees,
} from './trading-api';

/** The account in use (live or demo): each has its own balances, positions and orders. */
export function useBook(): number | undefined {
  return useUser().user?.accountType;
}

/** The available balance of the trade currency (USDT), when signed in. */
export function useTradeBalance(enabled: boolean) {
  const book = useBook();
  const currencyId = tradeCurrencyId();
  return useQuery({
    queryKey: [TRADING_KEY.balance, currencyId, book],
    queryFn: () => fetchBalance(currencyId),
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

export function useHoldings(enabled: boolean) {
  const book = useBook();
  return useQuery({
    queryKey: [TRADING_KEY.holdings, book],
    queryFn: fetchHoldings,
    enabled,
  });
}

export function useBibiAssets(enabled: boolean) {
  const book = useBook();
  return useQuery({
    queryKey: [TRADING_KEY.bibiAssets, book],
    queryFn: fetchBibiAssets,
    initialData: storedBibiAssets,
    initialDataUpdatedAt: 0,
    enabled,
  });
}

/** After an order, a cancel or a close: balances, positions, orders and holdings change. */
export function useRefreshTrading(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    for (const key of [
      TRADING_KEY.balance,
      TRADING_KEY.contracts,
      TRADING_KEY.spotOrders,
      TRADING_KEY.bibiOrders,
      TRADING_KEY.holdings,
      TRADING_KEY.bibiAssets,
      'balances',
    ])
      void queryClient.invalidateQueries({ queryKey: [key] });
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
