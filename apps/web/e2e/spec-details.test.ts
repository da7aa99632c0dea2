/**
 * Issue 17, defect 12 ("spec details") in real Chromium against the real server, at 390 × 844,
 * in English and in Arabic (right to left):
 *
 * - success is HTTP 200–299 *and* envelope code 200: an error envelope under HTTP 200 toasts its
 *   translated, formatted message; the server's own success envelope under HTTP 502 is no
 *   success (spec sections 8 and 9);
 * - a call times out 10,000 ms after the server has answered once (spec section 9);
 * - a screen whose code is slow shows the loading bar after 200 ms, gives the bar up after 60 s,
 *   and fails as a ChunkLoadError after 120 s, with a prompt to reload (sections 8 and 9); a
 *   screen whose code cannot be fetched gets the same prompt, and the reload opens the screen;
 * - a currency the platform does not list shows as '- -' (section 3);
 * - the helpers' toast stays 1,500 ms and the image toast 700 ms (section 9).
 *
 * Slow and broken answers are made with Playwright's `page.route` (a held, failed or rewritten
 * answer, everything else from the real server). Times are checked on the page's own clock
 * (Playwright's `page.clock`): paused, then moved forward by the spec's numbers (1 ms short of
 * each, then that 1 ms), so the checks do not depend on how fast the machine is.
 */
import type { Locator, Page, Route } from 'playwright-core';
import { formatMessage } from '@bourse/shared';
import { describe, expect, it } from 'vitest';
import {
  appUrl,
  expectToast,
  fund,
  operatorToken,
  registerUser,
  screenshot,
  stored,
  text,
  useBrowser,
  waitForRoute,
  type RegisteredUser,
} from './browser';

const LOGIN = '/pages/user/login';
const ME = '/pages/tabs/me/me-k';
const RECORDS = '/pages/record/accountRecord';
const RECHARGE = '/pages/user/recharge';
const BIBI = '/pages/quoteDetail/bibi';
const LOGIN_CALL = '**/api/userInfo/login';
const RECORDS_CALL = '**/api/balanceRecord/list**';
/** The balance records screen's own chunk (Vite names it after the module, with a hash). */
const RECORDS_CHUNK = '**/assets/account-record-page-*.js';
const USDT = 3;
/** No platform currency has this id. */
const UNKNOWN_ID = 999_999;

type Locale = 'en' | 'ar';

/** The page's direction, as the app set it for the language. */
function direction(page: Page): Promise<string> {
  return page.evaluate(
    () => document.documentElement.dir || getComputedStyle(document.body).direction,
  );
}

/**
 * Lets the page finish what it is doing without moving its (paused) clock: a round of tasks
 * through a MessageChannel, which the fake clock does not control, as React's scheduler uses.
 */
function settle(page: Page, rounds = 30): Promise<void> {
  return page.evaluate(
    (count) =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        let left = count;
        channel.port1.onmessage = () => (--left > 0 ? channel.port2.postMessage(0) : resolve());
        channel.port2.postMessage(0);
      }),
    rounds,
  );
}

/** Pauses the page's clock (installed before the page loaded), a second on from where it is. */
async function pauseClock(page: Page): Promise<void> {
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 1000);
  await settle(page);
}

/** Moves the paused clock forward by `ms`, firing what falls due, and lets the page react. */
async function advance(page: Page, ms: number): Promise<void> {
  await page.clock.runFor(ms);
  await settle(page);
}

/** Holds every request matching `pattern`; `arrived` resolves at the first, `release` lets all go. */
async function hold(page: Page, pattern: string) {
  const held: Route[] = [];
  let open = false;
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  await page.route(pattern, (route) => {
    if (open) return route.continue();
    held.push(route);
    arrive();
  });
  return {
    arrived,
    release() {
      open = true;
      for (const route of held.splice(0)) void route.continue().catch(() => undefined);
    },
  };
}

async function fillLogin(page: Page, user: RegisteredUser): Promise<void> {
  await page.locator('#login-account').fill(user.email);
  await page.locator('#login-password').fill(user.password);
}

function submitLogin(page: Page): Promise<void> {
  return page.locator('[data-testid="login-page"] button[type="submit"]').click();
}

const toastWith = (page: Page, message: string) =>
  page.locator('.adm-toast-main', { hasText: message });

/** The containers antd-mobile opens in the body, one per toast or dialog shown. */
function bodyLayers(page: Page): Promise<number> {
  return page.evaluate(() => document.querySelectorAll('body > div').length);
}

/** How opaque the toast with this text is: 1 shown, 0 gone (its mask animates in and out). */
function toastOpacity(page: Page, message: string): Promise<number> {
  return page.evaluate((wanted) => {
    const main = [...document.querySelectorAll('.adm-toast-main')].find((element) =>
      element.textContent?.includes(wanted),
    );
    const mask = main?.closest<HTMLElement>('.adm-toast-mask');
    if (!mask || getComputedStyle(mask).display === 'none') return 0;
    return Number(getComputedStyle(mask).opacity);
  }, message);
}

/**
 * With the clock paused where the toast was shown: it is fully there 1 ms before `durationMs`,
 * starts going within a few frames of `durationMs`, and is gone once its animation has run.
 */
async function expectToastLasts(page: Page, message: string, durationMs: number): Promise<void> {
  await advance(page, durationMs - 1);
  expect(await toastOpacity(page, message)).toBe(1);
  expect(await toastWith(page, message).isVisible()).toBe(true);
  await advance(page, 1);
  let going = 0;
  while ((await toastOpacity(page, message)) === 1 && going < 100) {
    await advance(page, 20);
    going += 20;
  }
  expect(await toastOpacity(page, message), `still shown ${going} ms later`).toBeLessThan(1);
  for (let step = 0; step < 50 && (await toastOpacity(page, message)) > 0; step += 1) {
    await advance(page, 20);
  }
  expect(await toastWith(page, message).isVisible()).toBe(false);
}

/** Opens the user centre and answers its entry to the balance records, once shown. */
async function recordsEntry(page: Page, locale: Locale): Promise<Locator> {
  await page.goto(appUrl(ME));
  const entry = page.locator('.grid-entry', { hasText: text('area_records', locale) });
  await entry.waitFor();
  return entry;
}

/** Runs `act` and waits until it has opened a toast (the page's clock may stand still). */
async function opensToast(page: Page, act: () => Promise<unknown>): Promise<void> {
  const before = await bodyLayers(page);
  await act();
  await expect.poll(() => bodyLayers(page)).toBeGreaterThan(before);
}

describe.each(['en', 'ar'] as const)('spec details (%s)', (locale: Locale) => {
  const browser = useBrowser();

  it('counts only HTTP 200–299 with envelope code 200 as success', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ storage: { locale } });
    await page.goto(appUrl(LOGIN));
    await page.locator('[data-testid="login-page"]').waitFor();
    expect(await direction(page)).toBe(locale === 'ar' ? 'rtl' : 'ltr');

    // HTTP 200 with an error envelope (code 500): its message, translated with its parameters.
    await page.route(LOGIN_CALL, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ code: 500, msg: 'hint_accountLocked', params: [15], data: null }),
      }),
    );
    await fillLogin(page, user);
    await submitLogin(page);
    const locked = formatMessage(text('hint_accountLocked', locale), [15]);
    await expectToast(page, locked);
    await expect.poll(() => toastOpacity(page, locked)).toBe(1);
    await screenshot(page, `spec-envelope-error-${locale}`);
    expect(await stored(page, 'uToken')).toBeNull();
    await waitForRoute(page, LOGIN);

    // The server's own success envelope (a real token) under HTTP 502: not a success.
    await page.unroute(LOGIN_CALL);
    let realCode: number | undefined;
    await page.route(LOGIN_CALL, async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      realCode = (JSON.parse(body) as { code: number }).code;
      await route.fulfill({ response, status: 502, body });
    });
    // A fresh page: the form's double-tap guard never sees this as a repeat of the first tap.
    await page.reload();
    await page.locator('[data-testid="login-page"]').waitFor();
    await fillLogin(page, user);
    await submitLogin(page);
    await expectToast(page, text('net_error', locale));
    await expect.poll(() => toastOpacity(page, text('net_error', locale))).toBe(1);
    expect(realCode).toBe(200);
    expect(await stored(page, 'uToken')).toBeNull();
    await waitForRoute(page, LOGIN);
    await screenshot(page, `spec-http-error-${locale}`);

    // The same answer under HTTP 200 signs the user in.
    await page.unroute(LOGIN_CALL);
    await page.reload();
    await page.locator('[data-testid="login-page"]').waitFor();
    await fillLogin(page, user);
    await submitLogin(page);
    await waitForRoute(page, ME);
    expect(await stored(page, 'uToken')).toEqual(expect.any(String));
  });

  it('times a call out 10,000 ms after the server has answered', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ storage: { locale } });
    await page.clock.install();
    await page.goto(appUrl(LOGIN));
    await page.locator('[data-testid="login-page"]').waitFor();
    // The launch calls have been answered: from now on a call has 10 s. This one never gets one.
    const login = await hold(page, LOGIN_CALL);
    const cancelled: string[] = [];
    page.on('requestfailed', (request) => {
      if (request.url().includes('/api/userInfo/login')) cancelled.push(request.url());
    });
    await fillLogin(page, user);
    await pauseClock(page);
    const layers = await bodyLayers(page);
    await submitLogin(page);
    await login.arrived;
    await settle(page);

    await advance(page, 9_999);
    expect(cancelled).toEqual([]);
    expect(await bodyLayers(page)).toBe(layers);
    await advance(page, 1);
    await expect.poll(() => cancelled.length).toBe(1);
    await page.clock.resume();
    await expectToast(page, text('net_timeout', locale));
    await expect.poll(() => toastOpacity(page, text('net_timeout', locale))).toBe(1);
    await screenshot(page, `spec-request-timeout-${locale}`);
    expect(await stored(page, 'uToken')).toBeNull();
    await waitForRoute(page, LOGIN);
  });

  it('shows the loading bar after 200 ms of a slow screen, for 60 s, then offers a reload at 120 s', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user, storage: { locale } });
    await page.clock.install();
    const entry = await recordsEntry(page, locale);
    const chunk = await hold(page, RECORDS_CHUNK);
    const bar = page.locator('.route-loading');
    const failed = page.locator('[data-testid="route-error"]');

    await pauseClock(page);
    await entry.click();
    await chunk.arrived;
    await settle(page);
    expect(await bar.count()).toBe(0);
    await advance(page, 199);
    expect(await bar.count()).toBe(0);
    await advance(page, 1);
    await bar.waitFor();
    expect(await bar.getAttribute('role')).toBe('progressbar');
    expect(await direction(page)).toBe(locale === 'ar' ? 'rtl' : 'ltr');
    await screenshot(page, `spec-loading-bar-${locale}`);

    // The bar is given up after 60 s; the screen's code is still on its way.
    await advance(page, 60_000 - 200 - 1);
    expect(await bar.count()).toBe(1);
    await advance(page, 1);
    expect(await bar.count()).toBe(0);
    expect(await failed.count()).toBe(0);

    // 120 s without the code: a ChunkLoadError, answered with the prompt to reload.
    await advance(page, 120_000 - 60_000 - 1);
    expect(await failed.count()).toBe(0);
    await advance(page, 1);
    await failed.waitFor();
    expect(await failed.locator('.page-center-title').textContent()).toBe(
      text('page_chunkLoadTitle', locale),
    );
    await page.clock.resume();
    chunk.release();
    // Two minutes passed in a moment of real time, so a call of the screen behind that was still
    // on its way timed out too (its toast); pictured once that has gone.
    await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
    await screenshot(page, `spec-chunk-timeout-${locale}`);
  });

  it('takes the loading bar away once a slow screen has arrived', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user, storage: { locale } });
    const entry = await recordsEntry(page, locale);
    const chunk = await hold(page, RECORDS_CHUNK);
    await entry.click();
    await chunk.arrived;
    const bar = page.locator('.route-loading');
    await bar.waitFor();
    expect(await page.locator('[data-testid="account-record-page"]').count()).toBe(0);
    chunk.release();
    await page.locator('[data-testid="account-record-page"]').waitFor();
    await bar.waitFor({ state: 'detached' });
    await waitForRoute(page, RECORDS);
  });

  it("offers a reload when a screen's code cannot be fetched, and the reload opens it", async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user, storage: { locale } });
    const entry = await recordsEntry(page, locale);
    await page.route(RECORDS_CHUNK, (route) => route.abort('internetdisconnected'));
    await entry.click();
    const failed = page.locator('[data-testid="route-error"]');
    await failed.waitFor();
    expect(await failed.locator('.page-center-title').textContent()).toBe(
      text('page_chunkLoadTitle', locale),
    );
    expect(await failed.locator('p').textContent()).toBe(text('page_chunkLoadText', locale));
    expect(await direction(page)).toBe(locale === 'ar' ? 'rtl' : 'ltr');
    await screenshot(page, `spec-chunk-error-${locale}`);

    // The connection is back: reloading loads the page again and opens the screen.
    await page.unroute(RECORDS_CHUNK);
    await page.evaluate(() => Object.assign(window, { beforeReload: true }));
    await failed
      .locator('[data-testid="reload"]', { hasText: text('page_reload', locale) })
      .click();
    await page.locator('[data-testid="account-record-page"]').waitFor();
    await waitForRoute(page, RECORDS);
    expect(await page.evaluate(() => 'beforeReload' in window)).toBe(false);
    expect(await failed.count()).toBe(0);
  });

  it("shows '- -' for a currency the platform does not list", async () => {
    const user = await registerUser();
    await fund(user, await operatorToken(), '100');
    const page = await browser.newPage({ user, storage: { locale } });
    // The server's records, with one in a currency it no longer lists (it names none then).
    await page.route(RECORDS_CALL, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { rows: Record<string, unknown>[] };
      const [first] = body.rows;
      if (first) {
        body.rows.unshift({ ...first, id: 'unknown-1', currencyId: UNKNOWN_ID, currencyName: '' });
      }
      await route.fulfill({ response, json: body });
    });
    await page.goto(appUrl(RECORDS));
    const rows = page.locator('[data-testid="record-row"]');
    await expect.poll(() => rows.count()).toBe(2);
    const amounts = page.locator('[data-testid="record-amount"]');
    expect((await amounts.nth(0).textContent())?.trim()).toMatch(/^\+100(\.0+)? - -$/);
    expect((await amounts.nth(1).textContent())?.trim()).toMatch(/^\+100(\.0+)? USD$/);
    expect(await direction(page)).toBe(locale === 'ar' ? 'rtl' : 'ltr');
    await screenshot(page, `spec-unknown-currency-record-${locale}`);

    // Opened on a currency id the platform does not list: the filter says '- -', not "all".
    const filtered = await browser.newPage({ user, storage: { locale } });
    await filtered.goto(appUrl(`${RECORDS}?currencyId=${UNKNOWN_ID}`));
    const empty = filtered.locator('[data-testid="records-empty"]');
    await empty.waitFor();
    expect(await empty.textContent()).toContain(text('record_emptyFiltered', locale));
    const filter = filtered.locator('[data-testid="record-currency"]');
    await expect.poll(async () => (await filter.textContent())?.trim()).toBe('- -');
    await screenshot(filtered, `spec-unknown-currency-filter-${locale}`);

    // The trade currency missing from the platform's list: the pair says '- -'.
    const pair = await browser.newPage({ user, storage: { locale } });
    await pair.route('**/api/platformCurrency/list**', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { rows: { id: number }[]; total: number };
      const rows = body.rows.filter((row) => row.id !== USDT);
      expect(rows.length).toBeGreaterThan(0);
      await route.fulfill({ response, json: { ...body, rows, total: rows.length } });
    });
    await pair.goto(appUrl(`${BIBI}?productCode=BTCUSDT`));
    await pair.locator('[data-testid="bibi-panel"]').waitFor();
    await expect
      .poll(async () => (await pair.locator('.bibi-price strong').textContent())?.trim())
      .toBe('BTC/- -');
    await screenshot(pair, `spec-unknown-currency-pair-${locale}`);
  });

  it('keeps the helper toast 1,500 ms and the image toast 700 ms', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user, storage: { locale } });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(appUrl('/')).origin,
    });
    await page.clock.install();
    await page.goto(appUrl(`${RECHARGE}?currencyId=${USDT}`));
    await page
      .locator('[data-testid="recharge-channels"] .rc-channel', { hasText: 'TRC20' })
      .first()
      .click();
    const address = page.locator('[data-testid="recharge-deposit-address"]');
    await address.waitFor();
    await pauseClock(page);

    // Copying the address: the helper's toast, 1,500 ms.
    const copied = text('recharge_copied', locale);
    await opensToast(page, () =>
      page.locator('.rc-row', { has: address }).locator('.rc-copy').click(),
    );
    await advance(page, 500);
    await screenshot(page, `spec-helper-toast-${locale}`);
    await expectToastLasts(page, copied, 1_500 - 500);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      await address.textContent(),
    );

    // Saving the QR image: the image toast, 700 ms.
    const saved = text('recharge_imageSaved', locale);
    const downloaded = page.waitForEvent('download');
    await opensToast(page, () => page.locator('[data-testid="recharge-qr-save"]').click());
    expect((await downloaded).suggestedFilename()).toMatch(/\.png$/);
    await expectToastLasts(page, saved, 700);
  });
});
