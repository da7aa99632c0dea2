/**
 * Steps the copy-trading browser tests share (copy-trading.test.ts: the screens;
 * copy-trading-flow.test.ts: the Done when on a test clock): the operator's reads, funding a user
 * in USDT, opening and closing a BTC contract, the follower's relations and copies, a test id's
 * text, and a user becoming a lead trader through the app (apply, approval, profile).
 */
import type { Page } from 'playwright-core';
import type { ContractPosition, CopyRelation, CopyRow } from '@bourse/shared';
import { expect } from 'vitest';
import {
  apiCall,
  appUrl,
  baseUrl,
  fund,
  operatorPost,
  operatorToken,
  registerUser,
  waitForRoute,
  type RegisteredUser,
} from './browser';

export async function operatorGet<T>(url: string): Promise<{ data: T; rows?: unknown[] }> {
  const response = await fetch(new URL(`/admin-api${url}`, baseUrl()), {
    headers: { Accept: 'application/json', Authorization: `Bearer ${await operatorToken()}` },
  });
  const result = (await response.json()) as { code: number; data: T; rows?: unknown[] };
  expect(result.code, JSON.stringify(result)).toBe(200);
  return result;
}

/** A user with `deposits` × 5,000 USD deposited (approved) and exchanged to USDT. */
export async function fundedUser(deposits = 1): Promise<RegisteredUser> {
  const user = await registerUser();
  // One deposit is at most 5,000.
  for (let index = 0; index < deposits; index += 1) await fund(user, await operatorToken(), '5000');
  const quote = await apiCall<{ quoteId: string }>('GET', '/api/balanceConvertRecord/quote', {
    token: user.token,
    query: { fromCurrencyId: '1', toCurrencyId: '3', amount: String(5000 * deposits) },
  });
  expect(quote.code, JSON.stringify(quote)).toBe(200);
  const converted = await apiCall('POST', '/api/balanceConvertRecord/balanceConvert', {
    token: user.token,
    form: { quoteId: quote.data.quoteId, requestId: `e2e-copy-convert-${user.userInfo.id}` },
  });
  expect(converted.code, JSON.stringify(converted)).toBe(200);
  return user;
}

let opens = 0;
/** Opens BTCUSDT at market: long (1) or short (2), at a leverage and quantity. */
export async function openContract(
  user: RegisteredUser,
  { direction = 1, leverage = 5, quantity = '0.002' } = {},
): Promise<ContractPosition> {
  opens += 1;
  const opened = await apiCall<ContractPosition>('POST', '/api/contractPosition/open', {
    token: user.token,
    form: {
      productType: '2',
      productCode: 'BTCUSDT',
      orderDirection: String(direction),
      leverage: String(leverage),
      quantity,
      requestId: `e2e-copy-open-${user.userInfo.id}-${opens}-${Date.now()}`,
    },
  });
  expect(opened.code, JSON.stringify(opened)).toBe(200);
  return opened.data;
}

export async function closeContract(user: RegisteredUser, id: number): Promise<void> {
  const closed = await apiCall('POST', '/api/contractPosition/close', {
    token: user.token,
    form: { id: String(id), requestId: `e2e-copy-close-${id}` },
  });
  expect(closed.code, JSON.stringify(closed)).toBe(200);
}

/** The first page of one of the user's copy-trading lists. */
async function firstPage<T>(user: RegisteredUser, list: string, pageSize: number): Promise<T[]> {
  const answer = await apiCall('GET', `/api/copyTrade/relation/${list}`, {
    token: user.token,
    query: { pageNum: '1', pageSize: String(pageSize) },
  });
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  return (answer.rows ?? []) as T[];
}

export function relations(user: RegisteredUser): Promise<CopyRelation[]> {
  return firstPage<CopyRelation>(user, 'followedList', 50);
}

export function copies(user: RegisteredUser): Promise<CopyRow[]> {
  return firstPage<CopyRow>(user, 'copies', 100);
}

export async function textOf(page: Page, testId: string): Promise<string> {
  const locator = page.locator(`[data-testid="${testId}"]`).first();
  await locator.waitFor();
  return ((await locator.textContent()) ?? '').trim();
}

/**
 * The user applies on the lead screen, the operator approves, and the user sets a title, a
 * description, a 10 % share and copies from 10 USDT in the profile editor. `pictures` is called
 * at each screen (for screenshots and checks of the caller's own).
 */
export async function becomeLeader(
  page: Page,
  leader: RegisteredUser,
  texts: { title: string; description: string },
  pictures: (step: 'apply' | 'approved' | 'profile') => Promise<void> = async () => undefined,
): Promise<void> {
  await page.goto(appUrl('/pages/followOrder/lead'));
  await page.locator('[data-testid="copy-lead-apply"]').waitFor();
  await pictures('apply');
  await page.locator('[data-testid="copy-lead-apply-button"]').click();
  await page.locator('[data-testid="copy-application-status"][data-status="0"]').waitFor();
  const pending = await operatorGet<unknown>('/copy-trade/applications?status=0&pageSize=50');
  const application = ((pending.rows ?? []) as { id: number; userId: number }[]).find(
    (row) => row.userId === leader.userInfo.id,
  );
  expect(application).toBeDefined();
  await operatorPost('/copy-trade/applications/approve', { id: application!.id });
  await page.reload();
  await page.locator('[data-testid="copy-lead-trader"]').waitFor();
  await pictures('approved');
  await page.locator('[data-testid="copy-lead-edit"]').click();
  await waitForRoute(page, '/pages/followOrder/leadProfile');
  await page.locator('[data-testid="copy-lead-language-en"]').click();
  await page.locator('#copy-lead-title').fill(texts.title);
  await page.locator('#copy-lead-description').fill(texts.description);
  await page.locator('#copy-lead-rate').fill('10');
  await page.locator('#copy-lead-min').fill('10');
  await pictures('profile');
  await page.locator('[data-testid="copy-lead-save"]').click();
  await waitForRoute(page, '/pages/followOrder/lead');
  expect(await textOf(page, 'copy-lead-rate')).toBe('10.00%');
}
