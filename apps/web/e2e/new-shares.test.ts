/**
 * New shares and new coins (issue 24), its "Done when" end to end through the app, against a
 * server of this file's own: the real server with a test clock (`CLOCK_OFFSET_FILE`, moved by
 * writing the file, never by sleeping) and the new-shares worker checking every 500 ms.
 *
 * The operator creates an oversubscribed offering of a new coin through the console's API (its
 * window opening a minute ahead, allocation and listing soon after it closes, a lock-up of one
 * day). The clock moves into the window; three funded users subscribe in the app (the detail
 * screen, the lots stepper, the cost preview from the shared `subscriptionCost`, the confirm
 * sheet) and exactly the total shown is frozen. The clock moves past the allocation time and the
 * worker allocates: each user sees their lots, paid and refunded on their subscriptions and their
 * own line on the proof page, where the browser recomputes the allocation and says it matches;
 * `npm run ipo:verify` prints the published result byte for byte and `verified`; each balance is
 * exactly what it was less what was paid (the refunds landed). The clock moves past the listing
 * time: the coin lists on the simulated feed at the offer price, labelled simulated in the quotes
 * API and on the market screen, and ticks. A sell of the allocated coins is refused in the lock-up
 * and goes through once the clock is past the listing plus one day.
 *
 * Before it (the day it moves the clock on would end the operator's session), every new screen in
 * the 19 languages, in their direction, with no locale key or unfilled `{0}` left and no sideways
 * scroll. Screenshots at 390x844.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import {
  LANGUAGES,
  allocate,
  bookOf,
  formatAmount,
  formatDateTime,
  normalize,
  scaleOf,
  sub,
  subscriptionCost,
  toScale,
  type ConsoleOffering,
  type Offering,
  type OfferingAllocation,
  type Subscription,
} from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readyAdmin } from '../../../tools/e2e-admin';
import { startE2eServer, type E2eServer } from '../../../tools/e2e-server';
import {
  adminCall,
  apiCall,
  appUrl,
  expectOnScreen,
  expectToast,
  fund,
  operatorPost,
  operatorToken,
  registerUser,
  screenshot,
  text,
  untranslated,
  useBrowser,
  useOwnServer,
  waitForRoute,
  type RegisteredUser,
} from './browser';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const CRYPTO = 2;
const USD = 1;
const USDT = 3;

let server: E2eServer | undefined;
let clockDir = '';
/** The server's clock minus the system's, as last written to the clock file. */
let offsetMs = 0;

/** The server's now. */
function serverNow(): number {
  return Date.now() + offsetMs;
}

/** Moves the server's clock to `time` (forward only), by writing the clock file. */
function moveClockTo(time: number): void {
  offsetMs = Math.max(offsetMs, Math.ceil(time - Date.now()));
  writeFileSync(path.join(clockDir, 'offset'), String(offsetMs));
}

const iso = (time: number) => new Date(time).toISOString();

beforeAll(async () => {
  clockDir = mkdtempSync(path.join(os.tmpdir(), 'bourse-e2e-clock-'));
  writeFileSync(path.join(clockDir, 'offset'), '0');
  server = await startE2eServer({
    app: 'web',
    dataDirPrefix: 'bourse-e2e-ipo-',
    env: {
      CLOCK_OFFSET_FILE: path.join(clockDir, 'offset'),
      NEW_SHARES_CHECK_MS: '500',
      // The clock moves a day and more: sessions outlive it.
      SESSION_TTL_HOURS: '720',
    },
  });
  useOwnServer({
    baseUrl: server.baseUrl,
    adminToken: await readyAdmin(server.baseUrl, server.firstAdminPassword),
  });
});

afterAll(async () => {
  useOwnServer(undefined);
  await server?.stop();
  if (clockDir) rmSync(clockDir, { recursive: true, force: true });
});

// ------------------------------------------------------------------ steps through the API

/** Creates an offering as the console does (a new coin, priced in the trade currency). */
async function createOffering(fields: {
  code: string;
  name: Record<string, string>;
  start: number;
  end: number;
  allocation: number;
  listing: number;
  lotsOffered?: string;
  maxLots?: string;
}): Promise<ConsoleOffering> {
  return operatorPost<ConsoleOffering>('/new-shares/offerings/save', {
    productType: CRYPTO,
    code: fields.code,
    name: fields.name,
    description: {
      en: 'A new coin of the e2e tests. Its allocation is computed by the published rule.',
      ar: 'عملة جديدة لاختبارات المتصفح.',
    },
    price: '2.35',
    lotSize: '10',
    lotsOffered: fields.lotsOffered ?? '10',
    minLots: '1',
    maxLots: fields.maxLots ?? '8',
    feeRate: '0.001',
    subscribeStart: iso(fields.start),
    subscribeEnd: iso(fields.end),
    allocationTime: iso(fields.allocation),
    listingTime: iso(fields.listing),
    lockUpDays: 1,
    minAuthLevel: -1,
  });
}

async function offering(id: number, user?: RegisteredUser): Promise<Offering> {
  const answer = await apiCall<Offering>('GET', '/api/newProductApplyPurchase/detail', {
    token: user?.token,
    query: { id: String(id) },
  });
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  return answer.data;
}

async function published(id: number, user?: RegisteredUser): Promise<OfferingAllocation> {
  const answer = await apiCall<OfferingAllocation>(
    'GET',
    '/api/newProductApplyPurchase/allocation',
    { token: user?.token, query: { id: String(id) } },
  );
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  return answer.data;
}

async function subscriptions(user: RegisteredUser): Promise<Subscription[]> {
  const answer = await apiCall('GET', '/api/userApplyPurchaseOrder/list', {
    token: user.token,
    query: { pageNum: '1', pageSize: '50' },
  });
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  return (answer.rows ?? []) as Subscription[];
}

/**
 * Waits until the offering's state (as the API reports it) is `status`: the worker runs every
 * 500 ms; a minute is a bound against hanging, not a timing (also in hooks, where expect.poll is
 * not allowed).
 */
async function statusBecomes(id: number, status: number): Promise<Offering> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const current = await offering(id);
    if (current.status === status) return current;
    if (Date.now() > deadline)
      throw new Error(`offering ${id} stayed in status ${current.status}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Available and frozen USDT of a user. */
async function usdt(user: RegisteredUser): Promise<{ amount: string; frozenAmount: string }> {
  const answer = await apiCall<{ amount: string; frozenAmount: string }>(
    'GET',
    '/api/userInfo/userBalance',
    { token: user.token, query: { currencyId: String(USDT) } },
  );
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  return {
    amount: normalize(answer.data.amount),
    frozenAmount: normalize(answer.data.frozenAmount),
  };
}

/** Available and frozen NOVA of a user: the coins of its allocation, from the wallet. */
async function coins(user: RegisteredUser): Promise<{ available: string; frozen: string }> {
  const answer = await apiCall<unknown>('GET', '/api/userBibiAssets/list', { token: user.token });
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  const row = (
    answer.rows as { productCode: string; bibiAmount: string; frozenAmount: string }[]
  ).find((entry) => entry.productCode === 'NOVAUSDT');
  return {
    available: normalize(row?.bibiAmount ?? '0'),
    frozen: normalize(row?.frozenAmount ?? '0'),
  };
}

/**
 * A live user whose basic identity the operator approved (new shares need it by default), with
 * USD deposited (approved by the operator) and exchanged to USDT.
 */
async function fundedUser(): Promise<RegisteredUser> {
  const user = await registerUser();
  const applied = await apiCall<{ id: number }>('POST', '/api/userAuthRecord/userAuthApply', {
    token: user.token,
    form: {
      authLevel: '0',
      realName: 'Ada Lovelace',
      idType: '0',
      idNumber: '11010519491231002X',
      requestId: `e2e-ipo-identity-${user.userInfo.id}`,
    },
  });
  expect(applied.code, JSON.stringify(applied)).toBe(200);
  const approved = await adminCall(await operatorToken(), '/identity/approve', {
    id: String(applied.data.id),
  });
  expect(approved.code, JSON.stringify(approved)).toBe(200);
  await fund(user, await operatorToken(), '1000');
  const quote = await apiCall<{ quoteId: string }>('GET', '/api/balanceConvertRecord/quote', {
    token: user.token,
    query: { fromCurrencyId: String(USD), toCurrencyId: String(USDT), amount: '1000' },
  });
  expect(quote.code, JSON.stringify(quote)).toBe(200);
  const converted = await apiCall('POST', '/api/balanceConvertRecord/balanceConvert', {
    token: user.token,
    form: { quoteId: quote.data.quoteId, requestId: `e2e-ipo-convert-${user.userInfo.id}` },
  });
  expect(converted.code, JSON.stringify(converted)).toBe(200);
  return user;
}

/** An amount as the app shows it: at least two decimals, grouped by thousands, its currency. */
function shown(value: string, currency: string): string {
  const decimals = Math.max(2, scaleOf(normalize(value)));
  return `${formatAmount(value, { decimals, thousands: true })} ${currency}`;
}

// ------------------------------------------------------------------ steps in the app

async function textOf(page: Page, testId: string): Promise<string> {
  const locator = page.locator(`[data-testid="${testId}"]`).first();
  await locator.waitFor();
  return ((await locator.textContent()) ?? '').trim();
}

async function noSidewaysScroll(page: Page, where: string): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `sideways scroll on ${where}`).toBeLessThanOrEqual(0);
}

/**
 * Subscribes for `lots` on the detail screen: the stepper from the minimum, the preview and the
 * confirm sheet showing the cost `subscriptionCost` gives, then the confirmation.
 */
async function subscribeInApp(
  page: Page,
  terms: Offering,
  lots: number,
  picture?: string,
): Promise<void> {
  await page.goto(appUrl(`/pages/newShares/detail?id=${terms.id}`));
  await page.locator('[data-testid="new-share-subscribe-button"]').waitFor();
  const input = page.locator('#new-share-lots');
  await expect.poll(() => input.inputValue()).toBe(terms.minLots);
  for (let count = Number(terms.minLots); count < lots; count++)
    await page.locator('[data-testid="new-share-lots-plus"]').click();
  await expect.poll(() => input.inputValue()).toBe(String(lots));
  const cost = subscriptionCost(terms, lots, terms.scale);
  await expect
    .poll(() => textOf(page, 'new-share-preview-total'))
    .toBe(shown(cost.total, terms.currency));
  expect(await textOf(page, 'new-share-preview-fee')).toBe(shown(cost.fee, terms.currency));
  if (picture) await screenshot(page, `${picture}-detail`);
  await page.locator('[data-testid="new-share-subscribe-button"]').click();
  await page.locator('[data-testid="new-share-confirm"]').waitFor();
  expect(await textOf(page, 'new-share-confirm-total')).toBe(shown(cost.total, terms.currency));
  expect(await textOf(page, 'new-share-confirm-amount')).toBe(shown(cost.amount, terms.currency));
  const confirm = page.locator('[data-testid="new-share-confirm-button"]');
  await expectOnScreen(page, confirm);
  if (picture) await screenshot(page, `${picture}-confirm`);
  await confirm.click();
  await expectToast(page, text('newShares_subscribed'));
  await page.locator('[data-testid="new-share-mine"]').waitFor();
  expect(await textOf(page, 'new-share-mine-lots')).toBe(
    text('newShares_lotsCount').replace('{0}', String(lots)),
  );
}

// ------------------------------------------------------------------ the tests

describe('new shares and new coins', () => {
  const browser = useBrowser();

  // First: the day the lock-up test moves the clock on ends the operator's session (8 hours idle).
  describe('in every language', () => {
    let user: RegisteredUser;
    const ids = { upcoming: 0, open: 0, listed: 0 };

    beforeAll(async () => {
      user = await fundedUser();
      // Listed (with the user's line), open (with the user's subscription), and upcoming.
      const now = serverNow();
      const start = now + MINUTE_MS;
      ids.listed = (
        await createOffering({
          code: 'LUMAUSDT',
          name: { en: 'Luma coin', ar: 'عملة لوما' },
          start,
          end: start + MINUTE_MS,
          allocation: start + 2 * MINUTE_MS,
          listing: start + 3 * MINUTE_MS,
        })
      ).id;
      ids.open = (
        await createOffering({
          code: 'ORBTUSDT',
          name: { en: 'Orbit coin', ar: 'عملة أوربت' },
          start,
          end: start + 30 * DAY_MS,
          allocation: start + 31 * DAY_MS,
          listing: start + 32 * DAY_MS,
        })
      ).id;
      ids.upcoming = (
        await createOffering({
          code: 'PIXLUSDT',
          name: { en: 'Pixel coin', ar: 'عملة بكسل' },
          start: start + 60 * DAY_MS,
          end: start + 61 * DAY_MS,
          allocation: start + 62 * DAY_MS,
          listing: start + 63 * DAY_MS,
        })
      ).id;
      moveClockTo(start + 1000);
      for (const offeringId of [ids.listed, ids.open]) {
        await statusBecomes(offeringId, 1);
        const placed = await apiCall(
          'POST',
          '/api/userApplyPurchaseOrder/addUserApplyPurchaseOrder',
          {
            token: user.token,
            form: { offeringId: String(offeringId), lots: '2', requestId: `e2e-ipo-${offeringId}` },
          },
        );
        expect(placed.code, JSON.stringify(placed)).toBe(200);
      }
      moveClockTo(start + 3 * MINUTE_MS + 1000);
      await statusBecomes(ids.listed, 4);
    });

    for (const { key: locale, rtl } of LANGUAGES)
      it(`shows every new-shares screen translated (${locale})`, async () => {
        const page = await browser.newPage({ user, storage: { locale } });
        // Each screen: its route, what shows once it is ready, and its picture's name.
        const screens: [string, string, string][] = [
          [
            '/pages/newShares/newShares?tab=open&productType=2',
            `[data-testid="new-share-${ids.open}"]`,
            'list-open',
          ],
          [
            '/pages/newShares/newShares?tab=upcoming&productType=2',
            `[data-testid="new-share-${ids.upcoming}"]`,
            'list-upcoming',
          ],
          [
            '/pages/newShares/newShares?tab=listed&productType=2',
            `[data-testid="new-share-${ids.listed}"]`,
            'list-listed',
          ],
          [
            '/pages/newShares/newShares?tab=open&productType=1',
            '[data-testid="new-shares-empty"]',
            'list-empty',
          ],
          [
            `/pages/newShares/detail?id=${ids.upcoming}`,
            '[data-testid="new-share-rule"]',
            'detail-upcoming',
          ],
          [
            `/pages/newShares/detail?id=${ids.listed}`,
            '[data-testid="new-share-proof-link"]',
            'detail-listed',
          ],
          [
            `/pages/newShares/detail?id=${ids.open}`,
            '[data-testid="new-share-mine"]',
            'detail-open',
          ],
          ['/pages/newShares/his', '[data-testid^="new-share-sub-"]', 'history'],
          [
            `/pages/newShares/allocation?id=${ids.listed}`,
            '[data-testid="new-share-verify"]',
            'allocation',
          ],
        ];
        await page.goto(appUrl(screens[0]![0]));
        for (const [route, ready, name] of screens) {
          await page.evaluate((hash) => (window.location.hash = hash), route);
          await page.locator(ready).first().waitFor();
          expect(await page.evaluate(() => document.documentElement.dir), route).toBe(
            rtl ? 'rtl' : 'ltr',
          );
          expect(await untranslated(page), `${route} (${locale})`).toEqual([]);
          await noSidewaysScroll(page, `${route} (${locale})`);
          if (route.startsWith(`/pages/newShares/detail?id=${ids.open}`)) {
            // The change's confirm sheet and the cancel question too.
            await page.locator('[data-testid="new-share-lots-plus"]').click();
            await page.locator('[data-testid="new-share-subscribe-button"]').click();
            await page.locator('[data-testid="new-share-confirm"]').waitFor();
            expect(await untranslated(page), `confirm (${locale})`).toEqual([]);
            await expectOnScreen(page, page.locator('[data-testid="new-share-confirm-button"]'));
            if (['en', 'zh', 'ar'].includes(locale))
              await screenshot(page, `new-share-change-${locale}`);
            // The sheet's first button cancels it.
            await page.locator('[data-testid="new-share-confirm"] .adm-button').first().click();
            await page.locator('[data-testid="new-share-confirm"]').waitFor({ state: 'hidden' });
            await page.locator('[data-testid="new-share-cancel-button"]').click();
            await page.locator('[data-testid="new-share-cancel-text"]').waitFor();
            expect(await untranslated(page), `cancel (${locale})`).toEqual([]);
            // The dialog's first button keeps the subscription.
            await page.locator('.adm-dialog-button').first().click();
            await page
              .locator('[data-testid="new-share-cancel-text"]')
              .waitFor({ state: 'hidden' });
          }
          if (['en', 'zh', 'ar'].includes(locale))
            await screenshot(page, `new-shares-${name}-${locale}`);
        }
      });
  });

  it(
    'subscribes three users, allocates by the published rule, proves it, lists the coin and unlocks it after the lock-up',
    { timeout: 600_000 },
    async () => {
      // An oversubscribed offering: 10 lots offered, 6 + 3 + 5 asked.
      const t0 = serverNow();
      const start = t0 + MINUTE_MS;
      const end = start + 60 * MINUTE_MS;
      const allocationTime = end + MINUTE_MS;
      const listingTime = allocationTime + MINUTE_MS;
      const created = await createOffering({
        code: 'NOVAUSDT',
        name: { en: 'Nova coin', ar: 'عملة نوفا', zh: '诺瓦币' },
        start,
        end,
        allocation: allocationTime,
        listing: listingTime,
      });
      expect(created.status).toBe(0);
      const id = created.id;
      const users = [await fundedUser(), await fundedUser(), await fundedUser()];
      const asked = [6, 3, 5];
      const before = await Promise.all(users.map(usdt));

      // Upcoming: its card counts down to the window's opening.
      const page = await browser.newPage({ user: users[0] });

      await page.goto(appUrl('/pages/newShares/newShares?tab=upcoming&productType=2'));
      const card = page.locator(`[data-testid="new-share-${id}"]`);
      await card.waitFor();
      expect(await card.textContent()).toContain('Nova coin');
      expect(await textOf(page, `new-share-${id}-price`)).toBe('2.35 USDT');
      expect(
        await card.locator('[data-testid="new-share-status"]').getAttribute('data-status'),
      ).toBe('0');
      expect(await card.locator('[data-testid="new-share-countdown"]').textContent()).toMatch(
        /\d{2}:\d{2}:\d{2}/,
      );
      await screenshot(page, 'new-shares-upcoming-en');
      await noSidewaysScroll(page, 'the upcoming tab');

      // The window opens: the clock moves a minute on.
      moveClockTo(start + 1000);
      const open = await statusBecomes(id, 1);
      expect(open).toMatchObject({ currency: 'USDT', price: '2.35', lotSize: '10' });
      await page.locator('[data-testid="new-shares-tab-open"]').click();
      await page.locator(`[data-testid="new-share-${id}"]`).waitFor();
      await screenshot(page, 'new-shares-open-en');

      // Three users subscribe in the app; exactly the total shown is frozen.
      for (const [index, user] of users.entries()) {
        const own = index === 0 ? page : await browser.newPage({ user });
        await subscribeInApp(own, open, asked[index]!, index === 0 ? 'new-share' : undefined);
        const frozen = subscriptionCost(open, asked[index]!, open.scale).total;
        expect(await usdt(user)).toEqual({
          amount: normalize(sub(before[index]!.amount, frozen)),
          frozenAmount: normalize(frozen),
        });
        if (index === 0) {
          await screenshot(page, 'new-share-subscribed-en');
          await noSidewaysScroll(page, 'the detail screen');
        }
      }
      const book = await offering(id);
      expect(book).toMatchObject({ subscribers: 3, lotsRequested: '14' });

      // The window closes and the allocation runs (the worker, by the moved clock).
      moveClockTo(allocationTime + 1000);
      const allocated = await statusBecomes(id, 3);
      expect(allocated.status).toBe(3);
      const proof = await published(id);
      expect(proof).toMatchObject({
        offeringId: id,
        rule: 'bourse-ipo-1',
        lotsOffered: '10',
        lotsRequested: '14',
        lotsAllocated: '10',
        oversubscribed: true,
      });
      // The rule's own function gives the same from the published book.
      const recomputed = allocate({
        offeringId: id,
        lotsOffered: 10n,
        book: bookOf(proof.lines),
      });
      expect(recomputed.input).toBe(proof.input);
      expect(recomputed.seed).toBe(proof.seed);
      expect(recomputed.result).toBe(proof.result);

      // ipo:verify reproduces it byte for byte.
      const run = await promisify(execFile)(
        'npm',
        ['run', '--silent', 'ipo:verify', '--', String(id), '--url', server!.baseUrl],
        { cwd: repoRoot },
      );
      expect(run.stdout).toBe(`${proof.result}verified: ${proof.seed}\n`);

      // Each user: their allocation, what they paid and what came back, and their line proven.
      const allocations: { user: RegisteredUser; subscription: Subscription }[] = [];
      for (const [index, user] of users.entries()) {
        const [subscription] = (await subscriptions(user)).filter((row) => row.offeringId === id);
        expect(subscription).toBeDefined();
        const line = proof.lines.find((entry) => entry.id === subscription!.publicId)!;
        expect(line).toMatchObject({ lots: String(asked[index]) });
        expect(BigInt(line.allocated)).toBeGreaterThanOrEqual(1n);
        expect(BigInt(line.allocated)).toBeLessThanOrEqual(BigInt(asked[index]!));
        const paid = subscriptionCost(open, line.allocated, open.scale).total;
        const frozen = subscriptionCost(open, asked[index]!, open.scale).total;
        expect(subscription).toMatchObject({
          status: 1,
          allocatedLots: line.allocated,
          paid,
          refunded: toScale(sub(frozen, paid), open.scale),
        });
        // The refund landed: exactly what was there before, less what was paid.
        expect(await usdt(user)).toEqual({
          amount: normalize(sub(before[index]!.amount, paid)),
          frozenAmount: '0',
        });
        allocations.push({ user, subscription: subscription! });

        const own = index === 0 ? page : await browser.newPage({ user });
        await own.goto(appUrl('/pages/newShares/his'));
        const row = `new-share-sub-${subscription!.id}`;
        await own.locator(`[data-testid="${row}"]`).waitFor();
        expect(await textOf(own, `${row}-allocated`)).toContain(
          text('newShares_lotsCount').replace('{0}', line.allocated),
        );
        expect(await textOf(own, `${row}-paid`)).toBe(shown(paid, 'USDT'));
        expect(await textOf(own, `${row}-refunded`)).toBe(
          shown(normalize(sub(frozen, paid)), 'USDT'),
        );
        if (index === 0) {
          await screenshot(own, 'new-share-history-allocated-en');
          await noSidewaysScroll(own, 'the subscriptions');
        }
        await own.locator(`[data-testid="${row}-proof"]`).click();
        await waitForRoute(own, '/pages/newShares/allocation');
        expect(await textOf(own, 'new-share-verify-line')).toBe(
          text('newShares_recomputedMatches'),
        );
        expect(
          await own.locator('[data-testid="new-share-verify"]').getAttribute('data-matches'),
        ).toBe('true');
        const mine = own.locator('[data-mine="true"]');
        await expect.poll(() => mine.count()).toBe(1);
        expect(await mine.getAttribute('data-testid')).toBe(`new-share-line-${line.id}`);
        expect(await textOf(own, `new-share-my-${line.id}-allocated`)).toBe(
          text('newShares_lotsCount').replace('{0}', line.allocated),
        );
        expect(await textOf(own, 'new-share-input-text')).toBe(proof.input.trim());
        if (index === 0) {
          await screenshot(own, 'new-share-allocation-en');
          await noSidewaysScroll(own, 'the proof');
        }
      }

      // Listing: the coin lists on the simulated feed at the offer price, labelled simulated.
      moveClockTo(listingTime + 1000);
      const listed = await statusBecomes(id, 4);
      expect(listed.productId).not.toBeNull();
      const quote = async () => {
        const answer = await apiCall<unknown>('GET', '/api/cryptocurrencyProduct/list', {
          query: { pageNum: '1', pageSize: '100', keyWords: 'NOVAUSDT' },
        });
        return (
          answer.rows as {
            productCode: string;
            simulated: boolean;
            source: string;
            PositionType: number[];
            tickerInfo: { nowPrice: string; sequence: number; source: string } | null;
          }[]
        ).find((row) => row.productCode === 'NOVAUSDT');
      };
      const first = await quote();
      expect(first).toMatchObject({ simulated: true, source: 'simulated', PositionType: [2, 3] });
      // Its first price is the offer price: the listing's own, or the feed's first step from it.
      const candles = await apiCall<{ open: string }[]>('GET', '/api/kline/list', {
        query: { productType: '2', productCode: 'NOVAUSDT', interval: '1m', limit: '1000' },
      });
      const firstPrice =
        first!.tickerInfo?.source === 'listing'
          ? first!.tickerInfo.nowPrice
          : (candles.data[0]?.open ?? first!.tickerInfo!.nowPrice);
      expect(Math.abs(Number(firstPrice) / 2.35 - 1)).toBeLessThan(0.01);
      // And it ticks: the feed's ticks follow one another.
      const sequence = (await quote())!.tickerInfo?.sequence ?? 0;
      await expect
        .poll(async () => (await quote())!.tickerInfo?.sequence ?? 0, { timeout: 30_000 })
        .toBeGreaterThan(sequence);
      expect((await quote())!.tickerInfo!.source).toBe('simulated');

      // The market screen shows it, labelled simulated.
      const holder = allocations[0]!;
      const quantity = holder.subscription.allocatedQuantity!;
      expect(quantity).toBe(normalize(String(Number(holder.subscription.allocatedLots) * 10)));
      await page.goto(
        appUrl(
          '/pages/quoteDetail/quoteDetail?productType=2&productCode=NOVAUSDT&mode=spot&side=2',
        ),
      );
      await page.locator('[data-testid="simulated-label"]').waitFor();
      await page.locator('[data-testid="spot-panel"]').waitFor();
      await screenshot(page, 'new-share-listed-market-en');

      // The allocated coins are in the wallet, frozen until the lock-up ends.
      expect(await coins(holder.user)).toEqual({ available: '0', frozen: quantity });

      // In the lock-up the allocated coins are not for sale.
      await page.goto(appUrl('/pages/newShares/his'));
      const row = `new-share-sub-${holder.subscription.id}`;
      await page.locator(`[data-testid="${row}"]`).waitFor();
      const [locked] = (await subscriptions(holder.user)).filter(
        (entry) => entry.offeringId === id,
      );
      // Locked until the listing plus the lock-up's day.
      expect(locked).toMatchObject({
        offeringStatus: 4,
        sellable: false,
        lockedUntil: iso(Date.parse(listed.listingTime) + DAY_MS),
      });
      await expect.poll(() => textOf(page, row)).toContain(text('newShares_lockedUntil'));
      expect(await textOf(page, `${row}-lock`)).toBe(formatDateTime(locked!.lockedUntil!));
      expect(await page.locator(`[data-testid="${row}-sell"]`).count()).toBe(0);
      await screenshot(page, 'new-share-history-locked-en');
      const refused = await apiCall('POST', '/api/bibiTradeOrder/sell', {
        token: holder.user.token,
        form: {
          productCode: 'NOVAUSDT',
          orderType: '1',
          quantity,
          requestId: `e2e-ipo-sell-early-${holder.subscription.id}`,
        },
      });
      expect(refused.msg, JSON.stringify(refused)).toBe('hint_newShareLocked');
      expect((refused as { params?: unknown[] }).params?.[1]).toBe('NOVA');
      // The coin-to-coin form has none of them to sell: refused on its field before sending.
      await page.goto(appUrl('/pages/quoteDetail/bibi?productCode=NOVAUSDT&side=2'));
      await page.locator('[data-testid="bibi-panel"]').waitFor();
      expect(
        await page.locator('[data-testid="bibi-side-sell"]').getAttribute('aria-pressed'),
      ).toBe('true');
      await page.locator('#bibi-quantity').fill(quantity);
      await expect
        .poll(() => page.locator('[data-testid="bibi-panel"] .field-error').textContent())
        .toBe(text('hint_insufficientHolding').replace('{0}', '0').replace('{1}', 'NOVA'));
      await screenshot(page, 'new-share-sell-locked-en');
      expect((await usdt(holder.user)).frozenAmount).toBe('0');

      // Past the listing plus one day: the worker releases the coins; sellable, and sold.
      moveClockTo(listingTime + DAY_MS + MINUTE_MS);
      await expect.poll(() => coins(holder.user)).toEqual({ available: quantity, frozen: '0' });
      await page.goto(appUrl('/pages/newShares/his'));
      await page.locator(`[data-testid="${row}-sell"]`).waitFor();
      await expect.poll(() => textOf(page, `${row}-lock`)).toBe(text('newShares_sellable'));
      await screenshot(page, 'new-share-history-sellable-en');
      await page.locator(`[data-testid="${row}-sell"]`).click();
      await waitForRoute(page, '/pages/quoteDetail/bibi');
      await page.locator('[data-testid="bibi-panel"]').waitFor();
      expect(
        await page.locator('[data-testid="bibi-side-sell"]').getAttribute('aria-pressed'),
      ).toBe('true');
      await page.locator('#bibi-quantity').fill(quantity);
      await page.locator('[data-testid="bibi-submit"]').click();
      await page.locator('[data-testid="bibi-confirm"]').waitFor();
      await page.locator('.adm-dialog-button', { hasText: text('common_confirm') }).click();
      await expectToast(page, text('trade_orderFilled'));
      expect(await coins(holder.user)).toEqual({ available: '0', frozen: '0' });
      const orders = await apiCall('GET', '/api/bibiTradeOrder/list', {
        token: holder.user.token,
        query: { pageNum: '1', pageSize: '20' },
      });
      expect(orders.rows?.[0]).toMatchObject({
        productCode: 'NOVAUSDT',
        orderDirection: 2,
        status: 1,
        quantity,
      });
    },
  );
});
