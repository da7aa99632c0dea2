/**
 * What the browser tests share: Debian's Chromium driven by playwright-core at a phone viewport,
 * one browser per test file and a fresh context per test, uncaught page errors failing the test,
 * screenshots, the app's texts, and users registered through the API.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { usePages } from '../../../tools/e2e-browser';

export { launchBrowser } from '../../../tools/e2e-browser';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const localesDir = path.resolve(webDir, '../../packages/shared/locales');
export const SCREENS_DIR = path.join(webDir, 'test-results/screens');
const FAILURES_DIR = path.join(webDir, 'test-results/failures');

export const VIEWPORT = { width: 390, height: 844 } as const;
/** Not in the server's common-password list, which refuses e.g. `Passw0rd1`. */
export const PASSWORD = 'Quokka7Harbor';

/** The texts of a bundled locale (packages/shared/locales/<locale>.json). */
const localeCache = new Map<string, Record<string, string>>();
export function messages(locale = 'en'): Record<string, string> {
  let texts = localeCache.get(locale);
  if (!texts) {
    texts = JSON.parse(readFileSync(path.join(localesDir, `${locale}.json`), 'utf8')) as Record<
      string,
      string
    >;
    localeCache.set(locale, texts);
  }
  return texts;
}

/** A message of a locale; throws on an unknown key so a renamed key fails loudly. */
export function text(key: string, locale = 'en'): string {
  const value = messages(locale)[key];
  if (value === undefined) throw new Error(`No message ${key} in ${locale}.json`);
  return value;
}

/**
 * What the page shows that is a locale key left as it is or a `{0}` left unfilled (none is
 * expected on any screen, in any language).
 */
export async function untranslated(page: Page): Promise<string[]> {
  const keys = messages('en');
  const shown = await page.evaluate(() => document.body.innerText);
  const words = shown.match(/[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+|\{\d\}/g) ?? [];
  return words.filter((word) => word in keys || /^\{\d\}$/.test(word));
}

/** Saves a PNG of the page under apps/web/test-results/screens/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  const file = path.join(SCREENS_DIR, `${name}.png`);
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  return file;
}

export interface RegisteredUser {
  email: string;
  password: string;
  token: string;
  userInfo: { id: number; userAccount: string; accountType: number; [key: string]: unknown };
}

let sequence = 0;
/** A unique, valid email for a test user. */
export function uniqueEmail(prefix = 'e2e'): string {
  sequence += 1;
  const random = Math.random().toString(36).slice(2, 8);
  return `${prefix}.${process.pid}.${Date.now().toString(36)}.${sequence}.${random}@example.com`;
}

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
  rows?: unknown[];
}

/** Calls the API from the test process (form-encoded POST, like the app). */
export async function apiCall<T = unknown>(
  method: 'GET' | 'POST',
  url: string,
  options: { token?: string; form?: Record<string, string>; query?: Record<string, string> } = {},
): Promise<Envelope<T>> {
  const target = new URL(url, baseUrl());
  for (const [name, value] of Object.entries(options.query ?? {})) {
    target.searchParams.set(name, value);
  }
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const response = await fetch(target, { method, headers, body });
  return (await response.json()) as Envelope<T>;
}

/** A POST to the operator API (`/admin-api`), form-encoded. */
export async function adminCall<T = unknown>(
  token: string,
  url: string,
  form: Record<string, string>,
): Promise<{ code: number; msg: string; data: T }> {
  const response = await fetch(new URL(`/admin-api${url}`, baseUrl()), {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form).toString(),
  });
  return (await response.json()) as { code: number; msg: string; data: T };
}

/**
 * A JSON POST to the operator API (`/admin-api`) as the first operator, as the console sends it;
 * expects it done and gives its data.
 */
export async function operatorPost<T = unknown>(url: string, body: unknown): Promise<T> {
  const response = await fetch(new URL(`/admin-api${url}`, baseUrl()), {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${await operatorToken()}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const result = (await response.json()) as Envelope<T>;
  expect(result.code, JSON.stringify(result)).toBe(200);
  return result.data;
}

/**
 * A session of the first operator (`admin`), made ready once by the global setup (its own
 * password, two-factor on), for operator steps through /admin-api.
 */
export function operatorToken(): Promise<string> {
  return Promise.resolve(ownServer?.adminToken ?? inject('adminToken'));
}

/** Deposits through the online channel (no proof needed) and has the operator approve it. */
export async function fund(user: RegisteredUser, operator: string, amount: string): Promise<void> {
  const channels = await apiCall<{ id: number; channelType: number; currencyName: string }[]>(
    'GET',
    '/api/rechargeChannelConfig/list',
    { token: user.token },
  );
  const online = channels.data.find((channel) => channel.channelType === 3);
  expect(online?.currencyName).toBe('USD');
  const deposit = await apiCall<{ id: number }>('POST', '/api/userRecharge/inMoney', {
    token: user.token,
    form: { channelId: String(online!.id), amount, requestId: `e2e-dep-${Date.now()}` },
  });
  expect(deposit.code, JSON.stringify(deposit)).toBe(200);
  const approved = await adminCall(operator, '/recharges/approve', { id: String(deposit.data.id) });
  expect(approved.code, JSON.stringify(approved)).toBe(200);
}

/** Registers a user by email through the API (the server needs no verification code here). */
export async function registerUser(
  email = uniqueEmail(),
  password = PASSWORD,
): Promise<RegisteredUser> {
  const result = await apiCall<{ token: string; userInfo: RegisteredUser['userInfo'] }>(
    'POST',
    '/api/userInfo/reg',
    { form: { regType: '1', userAccount: email, userPwd: password } },
  );
  if (result.code !== 200) throw new Error(`registration failed: ${JSON.stringify(result)}`);
  return { email, password, token: result.data.token, userInfo: result.data.userInfo };
}

let popUpVersion: Promise<unknown> | undefined;
/** The version of the launch pop-up the server offers (undefined when there is none). */
export function currentPopUpVersion(): Promise<unknown> {
  popUpVersion ??= apiCall('GET', '/api/popUp/list').then(
    (result) => (result.rows?.[0] as { version?: unknown } | undefined)?.version,
  );
  return popUpVersion;
}

/** A server the file started itself (other settings than the shared one's), when it did. */
let ownServer: { baseUrl: string; adminToken: string } | undefined;

/**
 * Points every helper of this file (its pages, API calls and operator steps) at a server the test
 * file started itself, or back at the shared one (undefined).
 */
export function useOwnServer(server: { baseUrl: string; adminToken: string } | undefined): void {
  ownServer = server;
  popUpVersion = undefined;
}

export function baseUrl(): string {
  return ownServer?.baseUrl ?? inject('baseUrl');
}

/** The app's URL for a route path ('/pages/…'). */
export function appUrl(route = '/'): string {
  return `${baseUrl()}/#${route}`;
}

export interface PageOptions {
  /** Leave the launch pop-up unseen, so it shows (default: marked seen, so it stays out of the way). */
  showPopUp?: boolean;
  /** Start signed in as this user (its token, account and details in device storage). */
  user?: RegisteredUser;
  /** Extra device storage (values are stored as JSON, like the app does). */
  storage?: Record<string, unknown>;
  /** A touch screen, as a phone has (for gestures such as pull-to-refresh). */
  touch?: boolean;
}

export interface BrowserHarness {
  /** A page in a fresh context at the phone viewport; closed after the test. */
  newPage(options?: PageOptions): Promise<Page>;
}

/**
 * One browser for the test file; each `newPage` opens a fresh context at the phone viewport
 * (tools/e2e-browser.ts). After every test the contexts close and any uncaught error thrown in a
 * page fails the test.
 */
export function useBrowser(): BrowserHarness {
  const pages = usePages(FAILURES_DIR);
  return {
    async newPage(options: PageOptions = {}) {
      const storage: Record<string, unknown> = { ...options.storage };
      if (!options.showPopUp) {
        const version = await currentPopUpVersion();
        if (version !== undefined) storage.popUpVersion = version;
      }
      if (options.user) {
        storage.uToken = options.user.token;
        storage.userAccount = options.user.userInfo.userAccount;
        storage.userInfo = options.user.userInfo;
      }
      const page = await pages.newPage({
        viewport: VIEWPORT,
        screen: VIEWPORT,
        deviceScaleFactor: 1,
        locale: 'en-US',
        hasTouch: options.touch ?? false,
        storageState: {
          cookies: [],
          origins: [
            {
              origin: baseUrl(),
              localStorage: Object.entries(storage).map(([name, value]) => ({
                name,
                value: JSON.stringify(value),
              })),
            },
          ],
        },
      });
      await page.addInitScript(recordToasts);
      return page;
    },
  };
}

interface ToastRecord {
  text: string;
  /** The largest box it had on screen (it grows and fades in and out). */
  box: { x: number; y: number; width: number; height: number } | null;
  seen: boolean;
}

/**
 * Runs in every page before the app: keeps each toast's text and the largest box it had while on
 * screen. A toast stays 2 s; on a loaded machine a test can reach its check after it has gone, so
 * expectToast reads this record instead of racing the toast's timer.
 */
function recordToasts(): void {
  const records: ToastRecord[] = [];
  (window as unknown as { __toasts: ToastRecord[] }).__toasts = records;
  // antd-mobile shows a new toast in the element on screen: a new text is a new toast.
  const live = new Map<Element, ToastRecord>();
  let scheduled = false;
  const measure = () => {
    for (const element of document.querySelectorAll('.adm-toast-main')) {
      const text = element.textContent ?? '';
      let record = live.get(element);
      if (!record || record.text !== text) {
        record = { text, box: null, seen: false };
        records.push(record);
        live.set(element, record);
      }
      const rect = element.getBoundingClientRect();
      if (rect.width > 0 && rect.height > 0 && (!record.box || rect.width > record.box.width))
        record.box = { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    }
    for (const element of [...live.keys()]) if (!element.isConnected) live.delete(element);
    // While a toast is on screen, measure it each frame (it grows in).
    if (live.size > 0 && !scheduled) {
      scheduled = true;
      requestAnimationFrame(() => {
        scheduled = false;
        measure();
      });
    }
  };
  new MutationObserver(measure).observe(document, {
    childList: true,
    subtree: true,
    characterData: true,
  });
}

/** The route path of the page's hash ('/pages/…', without the query). */
export async function currentRoute(page: Page): Promise<string> {
  return page.evaluate(() => window.location.hash.replace(/^#/, '').split('?')[0] ?? '');
}

/** Waits until the hash route (without its query) is `route` (within `timeout` ms if given). */
export async function waitForRoute(page: Page, route: string, timeout?: number): Promise<void> {
  await page.waitForFunction(
    (expected) => window.location.hash.replace(/^#/, '').split('?')[0] === expected,
    route,
    timeout === undefined ? undefined : { timeout },
  );
}

/** The device storage value of a key as the app reads it (parsed JSON, null when missing). */
export async function stored(page: Page, key: string): Promise<unknown> {
  return page.evaluate((name) => {
    const raw = window.localStorage.getItem(name);
    return raw === null ? null : (JSON.parse(raw) as unknown);
  }, key);
}

/**
 * Waits for an antd-mobile toast with this text (one not matched by an earlier call) and checks it
 * was really on screen, from the page's record of its toasts (recordToasts).
 */
export async function expectToast(page: Page, message: string): Promise<void> {
  const find = () =>
    page.evaluate((text) => {
      const records = (window as unknown as { __toasts: ToastRecord[] }).__toasts;
      const record = records.find((entry) => !entry.seen && entry.box && entry.text.includes(text));
      if (!record) return null;
      record.seen = true;
      return record.box;
    }, message);
  let box: ToastRecord['box'] = null;
  await expect
    .poll(async () => (box ??= await find()), { timeout: 15_000, message: `toast "${message}"` })
    .not.toBeNull();
  const viewport = page.viewportSize() ?? VIEWPORT;
  const { x, y, width, height } = box!;
  expect(x).toBeGreaterThanOrEqual(0);
  expect(y).toBeGreaterThanOrEqual(0);
  expect(x + width).toBeLessThanOrEqual(viewport.width);
  expect(y + height).toBeLessThanOrEqual(viewport.height);
}

/**
 * The element's box once it stands still: sheets and dialogs slide or grow in (antd-mobile animates
 * them in script), and a box read mid-way lies partly outside the screen.
 */
async function settledBox(page: Page, locator: Locator) {
  let previous = await locator.boundingBox();
  for (let attempt = 0; attempt < 40; attempt++) {
    await page.waitForTimeout(50);
    const next = await locator.boundingBox();
    const still =
      previous &&
      next &&
      (['x', 'y', 'width', 'height'] as const).every((key) => previous![key] === next[key]);
    if (still) return next;
    previous = next;
  }
  return previous;
}

/** The element has a size and lies inside the viewport (once it stands still). */
export async function expectOnScreen(page: Page, locator: Locator): Promise<void> {
  const box = await settledBox(page, locator);
  expect(box, 'element has a layout box').not.toBeNull();
  const viewport = page.viewportSize() ?? VIEWPORT;
  expect(box!.width).toBeGreaterThan(0);
  expect(box!.height).toBeGreaterThan(0);
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
}

/** Signs in through the login screen by email and waits for the user centre. */
export async function signInThroughUi(page: Page, user: RegisteredUser): Promise<void> {
  await page.goto(appUrl('/pages/user/login'));
  await page.locator('[data-testid="login-page"]').waitFor();
  await page.locator('#login-account').fill(user.email);
  await page.locator('#login-password').fill(user.password);
  await page.locator('[data-testid="login-page"] button[type="submit"]').click();
  await waitForRoute(page, '/pages/tabs/me/me-k');
  await expect
    .poll(() => page.locator('[data-testid="me-account"]').textContent())
    .toBe(user.email);
}
