/**
 * The balance calls of the trading screens: userBalance answers one balance when asked for a
 * currency and the list otherwise, and each helper hands its caller the shape it asked for.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assetsApi } from '@bourse/shared';
import { fetchBalance, fetchBalances } from './trade';

const usdt = {
  currencyId: 1,
  currencyName: 'USDT',
  amount: '10.0000',
  frozenAmount: '2.0000',
  totalAmount: '12.0000',
};
const btc = {
  currencyId: 2,
  currencyName: 'BTC',
  amount: '0.00000000',
  frozenAmount: '0.00000000',
  totalAmount: '0.00000000',
};

/** The server answers `data` to every call; the calls made are recorded. */
function serverAnswers(data: unknown) {
  const fetch = vi.fn(
    async (_url: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify({ code: 200, msg: 'hint_success', data }), {
        headers: { 'content-type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function calledUrl(fetch: ReturnType<typeof serverAnswers>): URL {
  return new URL(String(fetch.mock.calls[0]![0]), 'http://localhost');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the balance calls', () => {
  it("asks for one currency and gives that currency's balance", async () => {
    const fetch = serverAnswers(usdt);
    await expect(fetchBalance(1)).resolves.toEqual(usdt);
    const url = calledUrl(fetch);
    expect(url.pathname).toBe(assetsApi.balances.path);
    expect(url.searchParams.get('currencyId')).toBe('1');
  });

  it('picks the asked currency should a list come back', async () => {
    serverAnswers([btc, usdt]);
    await expect(fetchBalance(1)).resolves.toEqual(usdt);
    serverAnswers([btc]);
    await expect(fetchBalance(1)).rejects.toThrow(/currency 1/);
  });

  it('asks for every currency and always gives a list', async () => {
    const fetch = serverAnswers([usdt, btc]);
    await expect(fetchBalances()).resolves.toEqual([usdt, btc]);
    const url = calledUrl(fetch);
    expect(url.pathname).toBe(assetsApi.balances.path);
    expect(url.search).toBe('');
    serverAnswers(usdt);
    await expect(fetchBalances()).resolves.toEqual([usdt]);
  });
});
