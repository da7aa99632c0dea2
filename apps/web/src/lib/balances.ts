/**
 * The account's balances in the session's book (a module of its own: the home screen shows one,
 * and needs nothing else of the trading helpers in trade.ts).
 */
import { assetsApi, type CurrencyBalance } from '@bourse/shared';
import { api } from '../api';

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
