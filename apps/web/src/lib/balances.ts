/**
 * The account's balances and its one total in the session's book (a module of its own: home's
 * total, loaded after the first screen, needs nothing else of the trading helpers in trade.ts).
 */
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { assetsApi, type BalanceValuation, type CurrencyBalance } from '@bourse/shared';
import { api } from '../api';
import { subscribe } from './realtime';

/** A currency's available, frozen and total balance in the session's book. */
export type Balance = CurrencyBalance;

/**
 * The balance of one currency (queried under `userBalance` by every screen showing it). The call
 * answers one balance when asked for a currency, the list when asked for none.
 */
export async function fetchBalance(currencyId: number): Promise<Balance> {
  const data = await api.call(assetsApi.balances, { currencyId });
  const balance = Array.isArray(data) ? data.find((row) => row.currencyId === currencyId) : data;
  if (!balance) throw new Error(`userBalance answered no balance of currency ${currencyId}`);
  return balance;
}

/** Every visible currency's balance (queried under `balances`). */
export async function fetchBalances(): Promise<Balance[]> {
  const data = await api.call(assetsApi.balances, {});
  return Array.isArray(data) ? data : [data];
}

/**
 * How long one valuation stands before a screen showing the total reads it again: home, me and
 * the wallet show the same answer with the time of its prices (prices move every tick; the figure
 * is as of its time, never re-summed here), and it is read again at least this often while shown.
 */
export const VALUATION_FRESH_MS = 10_000;
export const VALUATION_REFRESH_MS = 30_000;

/** When the valuation each book shows was asked for (`Date.now()`), by book. */
const valuationAskedAt = new Map<number | undefined, number>();

/**
 * THE total of assets and every asset held, as the server values them (userBalanceConvert). Its
 * key starts with `balances`, so whatever marks the balances changed (a trade, a deposit, a
 * withdrawal) has every screen read the total again; and while a screen shows it, the server's
 * word that the user's money moved (the private `balances` topic) does the same at once. A screen
 * that starts listening reads it again only when the total it has was asked for before the topic
 * may have missed such a word (before the subscription was live, or before a word nobody heard):
 * money credited just before still shows, and screens opened one after another keep showing the
 * same valuation (with the same time of prices) instead of each reading a newer one.
 */
export function useValuation(book: number | undefined, enabled = true) {
  const queryClient = useQueryClient();
  const listening = enabled && book !== undefined;
  useEffect(() => {
    if (!listening) return;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: ['balances'] });
    return subscribe('balances', refresh, (since) => {
      if ((valuationAskedAt.get(book) ?? Number.NEGATIVE_INFINITY) <= since) refresh();
    });
  }, [listening, queryClient, book]);
  return useQuery({
    queryKey: ['balances', 'valuation', book],
    queryFn: async () => {
      const askedAt = Date.now();
      const valuation = await api.call(assetsApi.valuation);
      // A read overtaken by a later one (invalidated while on its way) can answer last.
      valuationAskedAt.set(book, Math.max(askedAt, valuationAskedAt.get(book) ?? askedAt));
      return valuation;
    },
    enabled,
    staleTime: VALUATION_FRESH_MS,
    refetchInterval: VALUATION_REFRESH_MS,
  });
}

const pad = (value: number) => String(value).padStart(2, '0');

/** `HH:mm:ss` in local time, with Latin digits in every language (like the amounts). */
export function clockTime(ms: number): string {
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/**
 * What goes with the total wherever it shows, through the screen's `translate`: the time of its
 * prices and, when some asset has no market price, which ones the total leaves out.
 */
export function valuationNotes(
  valuation: BalanceValuation | undefined,
  translate: (key: string, params: readonly unknown[]) => string,
): string[] {
  if (!valuation) return [];
  const notes = [translate('wallet_pricesAt', [clockTime(valuation.priceTime)])];
  if (valuation.unpricedCurrencies.length > 0)
    notes.push(translate('wallet_unpriced', [valuation.unpricedCurrencies.join(', ')]));
  return notes;
}
