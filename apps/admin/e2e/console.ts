/**
 * What the console's browser tests share: Debian's Chromium driven by playwright-core at a
 * 1440×900 desktop viewport, one browser per test file and a fresh context per page, uncaught page
 * errors failing the test, screenshots, the console's texts in both languages, and the server
 * called through the console's own client and the route table (users register and deposit,
 * operators are made, balances read). Operators whose role requires two-factor (admin, finance)
 * have it on, and sign in with codes of their secret (codes.ts).
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { expect, inject } from 'vitest';
import {
  accountApi,
  assetsApi,
  consoleOperatorsApi,
  formatMessage,
  operatorsApi,
  paymentMethodsApi,
  TWO_FACTOR_ROLES,
  walletApi,
  type OperatorRole,
} from '@bourse/shared';
import { usePages } from '../../../tools/e2e-browser';
import { createClient, type Client } from '../src/api/client';
import { accountOf, nextCode, rememberSecret, secretOf } from './codes';

const adminDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCREENS_DIR = path.join(adminDir, 'test-results/screens');
const FAILURES_DIR = path.join(adminDir, 'test-results/failures');

export const VIEWPORT = { width: 1440, height: 900 } as const;
export type Language = 'en' | 'zh';

/** Not in the server's common-password list, and long enough for operators (12). */
export const USER_PASSWORD = 'Quokka7Harbor';
export const WITHDRAWAL_PASSWORD = '246810';

export function baseUrl(): string {
  return inject('consoleBaseUrl');
}

/** A page of the console (`base`: another server's address, the first-sign-in test's). */
export function consoleUrl(route = '/', base = baseUrl()): string {
  return `${base}/admin/#${route}`;
}

// ---------------------------------------------------------------- texts

type Tree = { [key: string]: string | string[] | Tree };
const trees = new Map<string, Tree>();

function tree(file: string): Tree {
  let loaded = trees.get(file);
  if (!loaded) {
    loaded = JSON.parse(readFileSync(file, 'utf8')) as Tree;
    trees.set(file, loaded);
  }
  return loaded;
}

function merge(into: Tree, from: Tree): Tree {
  for (const [key, value] of Object.entries(from)) {
    const present = into[key];
    into[key] =
      present &&
      typeof present === 'object' &&
      !Array.isArray(present) &&
      typeof value === 'object' &&
      !Array.isArray(value)
        ? merge({ ...present }, value)
        : value;
  }
  return into;
}

const LOCALES_DIR = path.join(adminDir, 'src/i18n/locales');

/** The console's texts of a language: the frame's file and every area's, merged as the app does. */
function consoleTexts(language: Language): Tree {
  const areas = readdirSync(LOCALES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => tree(path.join(LOCALES_DIR, entry.name, `${language}.json`)));
  return areas.reduce(
    (all, area) => merge(all, area),
    merge({}, tree(path.join(LOCALES_DIR, `${language}.json`))),
  );
}

/** A console text (`nav.deposits`), with i18next's `{{name}}` values filled in. */
export function text(key: string, language: Language = 'en', values: Record<string, unknown> = {}) {
  let node: string | string[] | Tree | undefined = consoleTexts(language);
  for (const part of key.split('.')) node = (node as Tree | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`No console text ${key} in ${language}.json`);
  return node.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => String(values[name] ?? ''));
}

/** The console's name of an audit action (`recharge.approve`: a name with a dot, not a path). */
export function actionLabel(action: string, language: Language = 'en'): string {
  const actions = (consoleTexts(language).audit as Tree).actions as Record<string, string>;
  const label = actions[action];
  if (label === undefined) throw new Error(`No label of action ${action} in ${language}.json`);
  return label;
}

/** A server text of @bourse/shared's locales (`hint_…`), its `{0}` parameters filled in. */
export function serverText(key: string, language: Language = 'en', params: unknown[] = []) {
  const messages = tree(
    path.join(adminDir, `../../packages/shared/locales/${language}.json`),
  ) as Record<string, string>;
  const template = messages[key];
  if (template === undefined) throw new Error(`No server text ${key} in ${language}.json`);
  return formatMessage(
    template,
    params.map((param) =>
      typeof param === 'string' ? (messages[`field_${param}`] ?? param) : param,
    ),
  );
}

// ---------------------------------------------------------------- the server

/**
 * The console's request client, from the test process, as `token` (none: signed out); `base`:
 * another server's address.
 */
export function client(token?: string, language: Language = 'en', base = baseUrl()): Client {
  return createClient({
    baseUrl: base,
    token: () => token,
    language: () => (language === 'zh' ? { id: 1, bcp47: 'zh-Hans' } : { id: 2, bcp47: 'en' }),
  });
}

/** Who signs in: an operator's name and password (and the secret of their app, if not known). */
export interface Credentials {
  username: string;
  password: string;
  /** Their authenticator app's secret; else the one this run linked for them (codes.ts). */
  secret?: string;
}

function twoFactorFile(): string {
  return inject('twoFactorFile');
}

/**
 * The operator's authenticator app holds `secret` from now on (a new set-up); `base`: an operator
 * of another server.
 */
export function linkAuthenticator(username: string, secret: string, base = baseUrl()): void {
  rememberSecret(twoFactorFile(), accountOf(username, base), secret);
}

/**
 * The operator's next two-factor code (waiting for the next 30-second step when this one's was
 * used: the server takes each step once); `base`: an operator of another server.
 */
export function twoFactorCode(
  operator: Pick<Credentials, 'username' | 'secret'>,
  base = baseUrl(),
): Promise<string> {
  const account = accountOf(operator.username, base);
  if (operator.secret && secretOf(twoFactorFile(), account) !== operator.secret)
    rememberSecret(twoFactorFile(), account, operator.secret);
  return nextCode(twoFactorFile(), account);
}

/** Signs an operator in through the API, with a code when they have two-factor on; their token. */
export async function operatorToken(operator: Credentials, base = baseUrl()): Promise<string> {
  const answer = await client(undefined, 'en', base).call(operatorsApi.signIn, {
    username: operator.username,
    password: operator.password,
  });
  if (!('challenge' in answer)) return answer.token;
  const { token } = await client(undefined, 'en', base).call(consoleOperatorsApi.signInTwoFactor, {
    challenge: answer.challenge,
    code: await twoFactorCode(operator, base),
  });
  return token;
}

/**
 * A session of the first operator (`admin`): made by the global setup, which chose its password
 * and turned two-factor on, and ended by no file.
 */
export function firstAdminToken(): Promise<string> {
  return Promise.resolve(inject('firstAdminToken'));
}

/** The first operator's credentials, to sign in with through the sign-in page (`signIn`). */
export function firstAdmin(): Credentials {
  return {
    username: 'admin',
    password: inject('firstAdminPassword'),
    secret: inject('firstAdminSecret'),
  };
}

export interface TestOperator {
  id: number;
  username: string;
  password: string;
  /** Two-factor, for the roles that require it (admin, finance): the app's secret. */
  secret?: string;
  /** And the 10 recovery codes, each usable once. */
  recoveryCodes?: string[];
}

let sequence = 0;
function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}${process.pid.toString(36)}${Date.now().toString(36)}${sequence}`;
}

/** Whether a role requires two-factor (the server refuses such an operator anything until on). */
export function needsTwoFactor(roles: readonly string[]): boolean {
  return roles.some((role) => (TWO_FACTOR_ROLES as readonly string[]).includes(role));
}

/**
 * Turns two-factor on for the signed-in operator (`token`) through the API: set up with the
 * password, the first code; the secret (kept for their codes) and the recovery codes.
 */
export async function enrolTwoFactor(
  token: string,
  operator: Pick<Credentials, 'username' | 'password'>,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { secret } = await client(token).call(consoleOperatorsApi.twoFactorSetup, {
    password: operator.password,
  });
  linkAuthenticator(operator.username, secret);
  const { recoveryCodes } = await client(token).call(consoleOperatorsApi.twoFactorEnable, {
    code: await twoFactorCode({ username: operator.username }),
  });
  return { secret, recoveryCodes };
}

/**
 * An operator with `roles`, made by an admin (`adminToken`), who then chose their own password
 * and, when a role requires it, turned two-factor on through the API: the console opens on its
 * pages at once (no first-password or set-up step; sign-in asks a code: `signIn`). With
 * `twoFactor: false`, it stays off: the console sends an admin or finance operator to set it up.
 */
export async function createOperator(
  adminToken: string,
  roles: OperatorRole[],
  prefix = roles[0] ?? 'ops',
  { twoFactor = true }: { twoFactor?: boolean } = {},
): Promise<TestOperator> {
  const username = unique(`${prefix}.`).slice(0, 32);
  const first = `first ${username} Harbor`;
  const operator = await client(adminToken).call(operatorsApi.createOperator, {
    username,
    password: first,
    roles,
  });
  const password = `${username} Quokka Lantern`;
  const token = await operatorToken({ username, password: first });
  await client(token).send(operatorsApi.changePassword, {
    oldPassword: first,
    newPassword: password,
  });
  const made: TestOperator = { id: operator.id, username, password };
  if (!twoFactor || !needsTwoFactor(roles)) return made;
  return {
    ...made,
    ...(await enrolTwoFactor(await operatorToken({ username, password }), made)),
  };
}

export interface TestUser {
  id: number;
  email: string;
  token: string;
}

/** A user registered by email through the API (the server needs no code here). */
export async function registerUser(): Promise<TestUser> {
  const email = `${unique('console.')}@example.com`;
  const { token, userInfo } = await client().call(accountApi.register, {
    regType: 1,
    userAccount: email,
    userPwd: USER_PASSWORD,
  });
  return { id: userInfo.id, email, token };
}

/** A picture of a bank receipt (a PNG, as a phone would send it). */
export async function receiptImage(amount: string, reference: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="600">
    <rect width="900" height="600" fill="#fbfbf7"/>
    <rect x="0" y="0" width="900" height="96" fill="#1d4ed8"/>
    <text x="40" y="62" font-family="sans-serif" font-size="38" fill="#fff" font-weight="bold">Example Bank · Transfer receipt</text>
    <text x="40" y="170" font-family="sans-serif" font-size="30" fill="#333">Beneficiary: Bourse Ltd</text>
    <text x="40" y="230" font-family="sans-serif" font-size="30" fill="#333">Reference: ${reference}</text>
    <text x="40" y="330" font-family="sans-serif" font-size="56" fill="#111" font-weight="bold">Amount: ${amount} USD</text>
    <text x="40" y="420" font-family="sans-serif" font-size="26" fill="#555">Status: completed</text>
    <rect x="40" y="470" width="820" height="4" fill="#1d4ed8"/>
    <text x="40" y="530" font-family="monospace" font-size="22" fill="#777">TXN 20261127-0042-7781</text>
  </svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** The bank-transfer channel (type 1) of a list of deposit or withdrawal channels. */
function bankChannel<T extends { channelType: number }>(channels: T[], kind: string): T {
  const bank = channels.find((channel) => channel.channelType === 1);
  expect(bank, `a bank-transfer ${kind} channel`).toBeDefined();
  return bank!;
}

/** A deposit by bank transfer with its proof, left for review. */
export async function submitDeposit(user: TestUser, amount: string) {
  const api = client(user.token);
  const bank = bankChannel(await api.call(walletApi.rechargeChannels, {}), 'deposit');
  return api.call(walletApi.submitRecharge, {
    channelId: bank.id,
    amount,
    proofImage: await receiptImage(amount, `BRS-${user.id}`),
    remark: 'Sent from my bank app this morning.',
    requestId: unique('dep-').replace(/\./g, '-'),
  });
}

/** `amount` USD deposited by `user` (the first admin approves) and exchanged to USDT. */
export async function fundUsdt(user: TestUser, amount: string): Promise<void> {
  const admin = client(await firstAdminToken());
  const deposit = await submitDeposit(user, amount);
  await admin.call(operatorsApi.approveRecharge, { id: deposit.id });
  const app = client(user.token);
  const quote = await app.call(walletApi.exchangeQuote, {
    fromCurrencyId: 1,
    toCurrencyId: 3,
    amount,
  });
  await app.call(walletApi.exchange, { quoteId: quote.quoteId, requestId: unique('exchange-') });
}

/** The user's available balance in a currency (decimal text). */
export async function balance(user: TestUser, currencyName: string): Promise<string> {
  const all = await client(user.token).call(assetsApi.balances, {});
  const list = Array.isArray(all) ? all : [all];
  const entry = list.find((item) => item.currencyName === currencyName);
  expect(entry, `a ${currencyName} balance`).toBeDefined();
  return entry!.amount;
}

/**
 * A withdrawal to a bound bank card, left for review: the user sets a withdrawal password, binds
 * a card and asks for `amount` of the currency of a bank withdrawal channel.
 */
export async function submitWithdrawal(user: TestUser, amount: string) {
  const api = client(user.token);
  await api.call(accountApi.updateWithdrawalPassword, {
    newPwd: WITHDRAWAL_PASSWORD,
    userPwd: USER_PASSWORD,
  });
  const card = await api.call(paymentMethodsApi.addBankCard, {
    bankName: 'Example Bank',
    accountName: 'Test Person',
    cardNumber: '6222021234567890',
  });
  const bank = bankChannel(await api.call(walletApi.withdrawChannels, {}), 'withdrawal');
  return api.call(walletApi.submitWithdrawal, {
    channelId: bank.id,
    amount,
    withPwd: WITHDRAWAL_PASSWORD,
    bankId: card.id,
    requestId: unique('wd-').replace(/\./g, '-'),
  });
}

// ---------------------------------------------------------------- the browser

export interface ConsoleHarness {
  /** A page in a fresh context at 1440×900, the console in `language`; closed after the test. */
  newPage(language?: Language): Promise<Page>;
}

/**
 * One browser for the test file; each `newPage` opens a fresh context (tools/e2e-browser.ts).
 * After every test the contexts close and any uncaught error thrown in a page fails the test.
 * `base`: the pages are of another server (the first-sign-in test's fresh installation).
 */
export function useConsole(base?: string): ConsoleHarness {
  const pages = usePages(FAILURES_DIR);
  return {
    newPage(language: Language = 'en') {
      return pages.newPage({
        viewport: VIEWPORT,
        screen: VIEWPORT,
        deviceScaleFactor: 1,
        locale: language === 'zh' ? 'zh-CN' : 'en-US',
        timezoneId: 'UTC',
        // An operator who asks for less motion: the console opens and closes its dialogs and
        // drawers without animating them, so no click lands on one still coming in.
        reducedMotion: 'reduce',
        storageState: {
          cookies: [],
          origins: [
            {
              origin: base ?? baseUrl(),
              localStorage: [{ name: 'bourse.console.language', value: language }],
            },
          ],
        },
      });
    },
  };
}

/** Saves a PNG of the page under apps/admin/test-results/screens/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  const file = path.join(SCREENS_DIR, `${name}.png`);
  // Dialogs, drawers and toasts come in with antd's motion classes (`…-enter`, `…-appear`):
  // the picture is taken once none is left, as the operator sees the page a moment later.
  await page
    .waitForFunction(
      () =>
        ![...document.querySelectorAll('[class]')].some((element) =>
          /-(enter|appear|leave)(-(start|active|prepare))?(\s|$)/.test(
            element.getAttribute('class') ?? '',
          ),
        ),
      undefined,
      { timeout: 5000 },
    )
    .catch(() => undefined);
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  return file;
}

/** Waits until the hash route (without its query) is `route`. */
export async function waitForRoute(page: Page, route: string): Promise<void> {
  await page.waitForFunction(
    (expected) => window.location.hash.replace(/^#/, '').split('?')[0] === expected,
    route,
  );
}

/**
 * Signs in through the sign-in page, typing a code of the operator's app when the code step shows
 * (two-factor on), and waits for the console to leave it. `base`: another server's console.
 */
export async function signIn(page: Page, operator: Credentials, base?: string): Promise<void> {
  await page.goto(consoleUrl('/sign-in', base));
  await page.locator('[data-testid="sign-in"]').waitFor();
  await page.locator('[data-testid="username"]').fill(operator.username);
  await page.locator('[data-testid="password"]').fill(operator.password);
  await page.locator('[data-testid="sign-in-submit"]').click();
  await page.waitForFunction(
    () =>
      !window.location.hash.startsWith('#/sign-in') ||
      document.querySelector('[data-testid="sign-in-code"]') !== null,
  );
  if (await page.locator('[data-testid="sign-in-code"]').isVisible()) {
    await page.locator('[data-testid="two-factor-code"]').fill(await twoFactorCode(operator, base));
    await page.locator('[data-testid="two-factor-submit"]').click();
    await page.waitForFunction(() => !window.location.hash.startsWith('#/sign-in'));
  }
}

/**
 * Walks the two-factor set-up shown on the page (the set-up page an admin or finance operator is
 * sent to, or the account page's): the password, the key read from the page as a person types it
 * into their app, the app's first code, and the 10 recovery codes saved before going on. The key
 * is kept for the operator's later codes; answers it and the recovery codes.
 */
export async function setUpTwoFactor(
  page: Page,
  operator: Pick<Credentials, 'username' | 'password'>,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.locator('[data-testid="two-factor-password"]').fill(operator.password);
  await page.locator('[data-testid="two-factor-start"]').click();
  await page.locator('[data-testid="two-factor-qr"]').waitFor();
  const secret = (await page.locator('[data-testid="two-factor-secret"]').textContent())!.replace(
    /\s/g,
    '',
  );
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  linkAuthenticator(operator.username, secret);
  await page
    .locator('[data-testid="two-factor-enable-code"]')
    .fill(await twoFactorCode({ username: operator.username }));
  await page.locator('[data-testid="two-factor-enable"]').click();
  const codes = page.locator('[data-testid="recovery-code"]');
  await codes.first().waitFor();
  const recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
  expect(recoveryCodes).toHaveLength(10);
  await page.locator('[data-testid="recovery-saved"]').click();
  await page.locator('[data-testid="recovery-done"]').click();
  return { secret, recoveryCodes };
}

/**
 * The operators page at its largest page size, on its last page: the list is in id order, and
 * the files before this one may have made more operators than the first page holds, so the newest
 * (the ones a test just made) are there.
 */
export async function lastOperatorsPage(page: Page): Promise<void> {
  const list = page.locator('[data-testid="operators-page"]');
  await list.locator('[data-testid="operators-table"] tbody tr.ant-table-row').first().waitFor();
  await list.locator('.ant-pagination-options-size-changer').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').last().click();
  const last = list.locator('.ant-pagination-item').last();
  await last.click();
  await list.locator('.ant-pagination-item-active').and(last).waitFor();
}

/** Switches the console's language with the header's switch. */
export async function switchLanguage(page: Page, language: Language): Promise<void> {
  const name = language === 'zh' ? '简体中文' : 'English';
  await page
    .locator('[data-testid="language-switch"] .ant-segmented-item', { hasText: name })
    .click();
  await page.waitForFunction((lang) => document.documentElement.lang.startsWith(lang), language);
}

/**
 * A fresh page of `harness` (useConsole's) in `language`, signed in as `operator` and opened at
 * `route`, once the test id `ready` shows and nothing spins any more.
 */
export async function openSignedIn(
  harness: ConsoleHarness,
  operator: Credentials,
  route: string,
  ready: string,
  language: Language = 'en',
): Promise<Page> {
  const page = await harness.newPage(language);
  await signIn(page, operator);
  await page.goto(consoleUrl(route));
  await page.locator(`[data-testid="${ready}"]`).waitFor();
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
  return page;
}

/**
 * A fresh page of `harness` in `language` in the session of `token` (the console keeps its token
 * in local storage: each sign-in would take a two-factor code of its own 30-second step), opened
 * at `route`, once the test id `ready` shows and nothing spins any more.
 */
export async function openInSession(
  harness: ConsoleHarness,
  token: string,
  route: string,
  ready: string,
  language: Language = 'en',
): Promise<Page> {
  const page = await harness.newPage(language);
  await page.addInitScript((saved) => {
    localStorage.setItem('bourse.console.token', saved);
  }, token);
  await page.goto(consoleUrl(route));
  await page.locator(`[data-testid="${ready}"]`).waitFor();
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
  return page;
}
