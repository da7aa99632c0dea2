/**
 * New shares through the console at 1440x900 (issue 24):
 * - a finance operator creates an offering in the drawer (a refusal shown on its field first, in
 *   the server's words), finds it upcoming with an empty book, and edits its terms before the
 *   window opens;
 * - users funded through the API subscribe to an open offering from the app's API: the operator
 *   sees each subscription with its public id, lots and funds frozen, cannot edit the terms any
 *   more, and cancels the offering with a reason: every subscriber's funds are back at once and
 *   their subscriptions cancelled;
 * - an oversubscribed offering whose window runs for seconds is allocated by the server's worker
 *   (NEW_SHARES_CHECK_MS is short in the console's test server): the operator sees the allocation
 *   as published (rule, seed, input, result) recomputed in the browser, the same as `allocate`
 *   gives here from the published book, and each subscription's lots allocated, paid and refunded
 *   with the refunds in the users' balances;
 * - a support operator has no such page. The page is pictured in English and Chinese.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  OFFERING_STATUS,
  allocate,
  bookOf,
  consoleIdentityApi,
  consoleNewSharesApi,
  identityApi,
  newSharesApi,
  normalize,
  sub,
  type ConsoleOffering,
  type OfferingSaveInput,
  type Subscription,
} from '@bourse/shared';
import {
  balance,
  client,
  consoleUrl,
  createOperator,
  firstAdminToken,
  fundUsdt,
  openInSession,
  openSignedIn,
  operatorToken,
  registerUser,
  screenshot,
  serverText,
  signIn,
  text,
  useConsole,
  waitForRoute,
  type ConsoleHarness,
  type Credentials,
  type Language,
  type TestUser,
} from './console';

const run = Date.now().toString(36).toUpperCase();
const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

let operator: Credentials;
/** A session of `operator`, for its calls from here and the pages after the first sign-in. */
let operatorSession: string;
let browser: ConsoleHarness;
let sequence = 0;
const requestId = () => `console-ipo-${run}-${++sequence}`;

/** The page, signed in through the sign-in page. */
const openConsole = (language: Language = 'en') =>
  openSignedIn(browser, operator, '/new-shares', 'new-shares-table', language);

/**
 * The page in the operator's session (the console keeps its token in local storage): each sign-in
 * takes a two-factor code of its own 30-second step, which a test would wait for.
 */
const openInOwnSession = (language: Language = 'en'): Promise<Page> =>
  openInSession(browser, operatorSession, '/new-shares', 'new-shares-table', language);

const operatorApi = () => client(operatorSession);

const testId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const textOf = async (page: Page, id: string) => (await testId(page, id).textContent()) ?? '';

/**
 * A time as the page's datetime-local inputs take it (the page runs in UTC): to the second,
 * whole minutes without their seconds, as the input keeps them.
 */
function localInput(ms: number): string {
  const local = new Date(ms).toISOString().slice(0, 19);
  return local.endsWith(':00') ? local.slice(0, 16) : local;
}

/**
 * A user with the basic identity level (new shares require it by default) and `amount` USD
 * deposited and exchanged to USDT, the trade currency offerings are paid in; an admin approves.
 */
async function fundedUser(amount: string): Promise<TestUser> {
  const user = await registerUser();
  const admin = client(await firstAdminToken());
  const app = client(user.token);
  const identity = await app.call(identityApi.authApply, {
    authLevel: 0,
    realName: 'Grace Hopper',
    idType: 2,
    idNumber: `P${user.id}`.padEnd(8, '7'),
    requestId: requestId(),
  });
  await admin.call(consoleIdentityApi.approveIdentity, { id: identity.id });
  await fundUsdt(user, amount);
  return user;
}

/** A coin offering (its code the coin and USDT) saved through the console's API, its window opening `opensInMs` from now. */
async function offeringOpening(
  code: string,
  opensInMs: number,
  windowMs: number,
  terms: Partial<OfferingSaveInput> = {},
): Promise<ConsoleOffering> {
  const start = Date.now() + opensInMs;
  return operatorApi().call(consoleNewSharesApi.saveOffering, {
    productType: 2,
    code,
    name: { en: `Coin ${code}` },
    price: '2',
    lotSize: '1',
    lotsOffered: '100',
    minLots: '1',
    maxLots: '50',
    feeRate: '0',
    subscribeStart: new Date(start).toISOString(),
    subscribeEnd: new Date(start + windowMs).toISOString(),
    allocationTime: new Date(start + windowMs + SECOND).toISOString(),
    // Far enough that nothing lists in this shared server during the run.
    listingTime: new Date(start + 30 * DAY).toISOString(),
    lockUpDays: 30,
    minAuthLevel: -1,
    ...terms,
  });
}

/** Waits (on this machine's clock, the server's too) until a time has passed. */
async function waitUntil(iso: string): Promise<void> {
  const left = Date.parse(iso) + 200 - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}

/** The console's answer for one offering. */
async function consoleOffering(id: number): Promise<ConsoleOffering> {
  const page = await operatorApi().call(consoleNewSharesApi.offerings, {
    pageNum: 1,
    pageSize: 100,
  });
  const offering = page.rows.find((row) => row.id === id);
  expect(offering, `offering ${id} in the console's list`).toBeDefined();
  return offering!;
}

async function subscribe(user: TestUser, offeringId: number, lots: string): Promise<Subscription> {
  return client(user.token).call(newSharesApi.subscribe, {
    offeringId,
    lots,
    requestId: requestId(),
  });
}

/** The form item (label, input and its problem) of a field's input. */
const fieldError = (page: Page, inputTestId: string) =>
  page
    .locator('.ant-form-item', { has: testId(page, inputTestId) })
    .locator('.ant-form-item-explain-error');

beforeAll(async () => {
  operator = await createOperator(await firstAdminToken(), ['finance'], 'ipo');
  operatorSession = await operatorToken(operator);
});

describe('new shares in the console', () => {
  browser = useConsole();

  it('creates an offering in the drawer and edits it before its window opens', async () => {
    const page = await openConsole();
    expect(await textOf(page, 'page-title')).toBe(text('nav.newShares'));
    const code = `NS${run}`.slice(0, 16);
    const opens = Date.now() + 2 * DAY + 17 * SECOND;

    await testId(page, 'new-share-new').click();
    const editor = testId(page, 'new-share-editor');
    await editor.waitFor();
    expect(await textOf(page, 'new-share-rule')).toContain('bourse-ipo-1');
    await testId(page, 'new-share-code').fill(code.toLowerCase());
    await testId(page, 'new-share-price').fill('12.5');
    await testId(page, 'new-share-lot-size').fill('100');
    await testId(page, 'new-share-lots-offered').fill('1000');
    await testId(page, 'new-share-min-lots').fill('2');
    // More per user than offered: refused on its field before anything is sent.
    await testId(page, 'new-share-max-lots').fill('2000');
    await testId(page, 'new-share-fee-rate').fill('0.001');
    await testId(page, 'new-share-start').fill(localInput(opens));
    await testId(page, 'new-share-end').fill(localInput(opens + 3 * DAY));
    await testId(page, 'new-share-allocation-time').fill(localInput(opens + 3 * DAY + 3600_000));
    await testId(page, 'new-share-listing-time').fill(localInput(opens + 5 * DAY));
    await testId(page, 'new-share-lock-up').fill('30');
    await testId(page, 'new-share-name-en').fill(`Harbor Robotics ${run}`);
    await testId(page, 'new-share-description-en').fill('Industrial robots for ports.');
    await testId(page, 'new-share-tab-ar').click();
    await testId(page, 'new-share-name-ar').fill(`هاربر للروبوتات ${run}`);
    expect(await textOf(page, 'new-share-offered')).toBe(
      text('newShares.quantityLine', 'en', { quantity: '100000', value: '1250000' }),
    );
    await testId(page, 'new-share-save').click();
    await expect
      .poll(() => fieldError(page, 'new-share-max-lots').textContent())
      .toBe(serverText('hint_newShareMaxAboveOffer', 'en', ['maxLots']));
    // Typed in small letters, kept in capitals.
    expect(await testId(page, 'new-share-code').inputValue()).toBe(code);
    await testId(page, 'new-share-max-lots').scrollIntoViewIfNeeded();
    await screenshot(page, 'new-shares-editor-en');

    await testId(page, 'new-share-max-lots').fill('200');
    await testId(page, 'new-share-save').click();
    await editor.waitFor({ state: 'detached' });
    const row = page.locator('[data-testid^="new-share-row-"]', { hasText: code });
    await row.waitFor();
    const id = Number((await row.getAttribute('data-testid'))!.replace(/\D+/g, ''));
    expect(await textOf(page, `new-share-status-${id}`)).toBe(text('newShares.status.0'));
    expect(await textOf(page, `new-share-subscribers-${id}`)).toBe(
      text('newShares.subscribersLine_other', 'en', { count: 0 }),
    );
    expect(await textOf(page, `new-share-requested-${id}`)).toBe(
      text('newShares.requestedLine', 'en', { lots: '0' }),
    );
    const saved = await consoleOffering(id);
    expect(saved).toMatchObject({
      productType: 1,
      code,
      status: OFFERING_STATUS.upcoming,
      lotsOffered: '1000',
      minLots: '2',
      maxLots: '200',
      lockUpDays: 30,
      rule: 'bourse-ipo-1',
    });
    expect(normalize(saved.price)).toBe('12.5');
    expect(saved.name).toMatchObject({
      en: `Harbor Robotics ${run}`,
      ar: `هاربر للروبوتات ${run}`,
    });
    expect(Date.parse(saved.subscribeStart)).toBe(Math.floor(opens / SECOND) * SECOND);
    await screenshot(page, 'new-shares-list-en');

    // Changed before the window opens: the drawer starts from the stored terms.
    await testId(page, `new-share-edit-${id}`).click();
    await editor.waitFor();
    expect(await testId(page, 'new-share-code').inputValue()).toBe(code);
    expect(await testId(page, 'new-share-name-en').inputValue()).toBe(`Harbor Robotics ${run}`);
    await testId(page, 'new-share-price').fill('13');
    await testId(page, 'new-share-lots-offered').fill('1200');
    await testId(page, 'new-share-save').click();
    await editor.waitFor({ state: 'detached' });
    await expect
      .poll(() => textOf(page, `new-share-offered-${id}`))
      .toBe(text('newShares.lotsLine', 'en', { lots: '1200', size: saved.lotSize }));
    const changed = await consoleOffering(id);
    expect(normalize(changed.price)).toBe('13');
    expect(changed.lotsOffered).toBe('1200');
    expect(changed.name.ar).toBe(`هاربر للروبوتات ${run}`);
    expect(changed.subscribeStart).toBe(saved.subscribeStart);

    // Another offering under the same code: the server's refusal goes on the code.
    await testId(page, 'new-share-new').click();
    await editor.waitFor();
    await testId(page, 'new-share-code').fill(code);
    await testId(page, 'new-share-price').fill('3');
    await testId(page, 'new-share-lot-size').fill('1');
    await testId(page, 'new-share-lots-offered').fill('10');
    await testId(page, 'new-share-max-lots').fill('5');
    await testId(page, 'new-share-start').fill(localInput(opens));
    await testId(page, 'new-share-end').fill(localInput(opens + DAY));
    await testId(page, 'new-share-allocation-time').fill(localInput(opens + DAY));
    await testId(page, 'new-share-listing-time').fill(localInput(opens + 2 * DAY));
    await testId(page, 'new-share-name-en').fill(`Second ${run}`);
    await testId(page, 'new-share-save').click();
    await expect
      .poll(() => fieldError(page, 'new-share-code').textContent())
      .toBe(serverText('hint_newShareCodeTaken', 'en', ['code']));
    expect(await testId(page, 'new-share-failure').count()).toBe(0);
    await page
      .locator('.ant-drawer-footer button', { hasText: new RegExp(`^${text('common.cancel')}$`) })
      .click();
    await editor.waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid^="new-share-row-"]', { hasText: code }).count()).toBe(
      1,
    );
  });

  it('shows the subscriptions of an open offering and cancels it with a reason', async () => {
    const users = await Promise.all([fundedUser('300'), fundedUser('300')]);
    const before = await Promise.all(users.map((user) => balance(user, 'USDT')));
    const offering = await offeringOpening(`${`NC${run}`.slice(0, 10)}USDT`, 3 * SECOND, DAY);
    await waitUntil(offering.subscribeStart);
    const subscriptions = [
      await subscribe(users[0]!, offering.id, '10'),
      await subscribe(users[1]!, offering.id, '5'),
    ];
    expect(subscriptions.map((item) => normalize(item.frozen))).toEqual(['20', '10']);
    expect(normalize(await balance(users[0]!, 'USDT'))).toBe(
      normalize(sub(before[0]!, subscriptions[0]!.frozen)),
    );

    const page = await openInOwnSession();
    const id = offering.id;
    await testId(page, `new-share-row-${id}`).waitFor();
    expect(await textOf(page, `new-share-status-${id}`)).toBe(text('newShares.status.1'));
    // The window is open: the terms are fixed.
    expect(await testId(page, `new-share-edit-${id}`).isDisabled()).toBe(true);
    expect(await textOf(page, `new-share-subscribers-${id}`)).toBe(
      text('newShares.subscribersLine_other', 'en', { count: 2 }),
    );
    expect(await textOf(page, `new-share-requested-${id}`)).toBe(
      text('newShares.requestedLine', 'en', { lots: '15' }),
    );

    await testId(page, `new-share-subscriptions-${id}`).click();
    await testId(page, 'new-share-subs-table').waitFor();
    for (const subscription of subscriptions) {
      await testId(page, `new-share-sub-public-${subscription.id}`).waitFor();
      expect(await textOf(page, `new-share-sub-public-${subscription.id}`)).toBe(
        subscription.publicId,
      );
      expect(subscription.publicId).toMatch(/^[0-9a-f]{16}$/);
      expect(await textOf(page, `new-share-sub-lots-${subscription.id}`)).toBe(subscription.lots);
      expect(await textOf(page, `new-share-sub-frozen-${subscription.id}`)).toBe(
        `${subscription.frozen} ${subscription.currency}`,
      );
      expect(await textOf(page, `new-share-sub-status-${subscription.id}`)).toBe(
        text('newShares.subs.status.0'),
      );
    }
    expect(await textOf(page, 'new-share-subs-subscribers')).toBe('2');
    expect(await textOf(page, 'new-share-subs-requested')).toBe('15 / 100');
    await screenshot(page, 'new-shares-subscriptions-en');
    await page.keyboard.press('Escape');
    await testId(page, 'new-share-subscriptions').waitFor({ state: 'detached' });

    // Cancelled with the reason subscribers read: every hold released at once.
    await testId(page, `new-share-cancel-${id}`).click();
    await testId(page, 'new-share-cancel-effects').waitFor();
    await testId(page, 'new-share-cancel-confirm').click();
    await expect
      .poll(() =>
        page
          .locator('.ant-form-item', { has: testId(page, 'new-share-cancel-reason') })
          .locator('.ant-form-item-explain-error')
          .textContent(),
      )
      .toBe(serverText('hint_paramRequired', 'en', ['reason']));
    // Closed without cancelling, and opened again with a fresh form.
    await page
      .locator('.ant-modal-footer button', { hasText: new RegExp(`^${text('common.cancel')}$`) })
      .click();
    await testId(page, 'new-share-cancel-reason').waitFor({ state: 'detached' });
    expect(await textOf(page, `new-share-status-${id}`)).toBe(text('newShares.status.1'));
    await testId(page, `new-share-cancel-${id}`).click();
    const reason = 'The issuer withdrew its listing application.';
    await testId(page, 'new-share-cancel-reason').fill(reason);
    await screenshot(page, 'new-shares-cancel-en');
    await testId(page, 'new-share-cancel-confirm').click();
    await expect
      .poll(() => textOf(page, `new-share-status-${id}`))
      .toBe(text('newShares.status.5'));
    expect(await textOf(page, `new-share-reason-${id}`)).toBe(reason);
    expect(await testId(page, `new-share-cancel-${id}`).count()).toBe(0);
    expect(await Promise.all(users.map((user) => balance(user, 'USDT')))).toEqual(before);
    for (const [index, user] of users.entries()) {
      const mine = await client(user.token).call(newSharesApi.subscriptions, {
        pageNum: 1,
        pageSize: 20,
      });
      expect(mine.rows.find((row) => row.id === subscriptions[index]!.id)?.status).toBe(3);
    }
    expect((await consoleOffering(id)).cancelReason).toBe(reason);
  });

  it('shows an oversubscribed allocation as published, recomputed, with its refunds', async () => {
    const users = await Promise.all([fundedUser('300'), fundedUser('300'), fundedUser('300')]);
    const before = await Promise.all(users.map((user) => balance(user, 'USDT')));
    const offering = await offeringOpening(
      `${`NA${run}`.slice(0, 10)}USDT`,
      3 * SECOND,
      10 * SECOND,
      {
        lotsOffered: '10',
        maxLots: '10',
        price: '1.5',
        feeRate: '0.01',
      },
    );
    await waitUntil(offering.subscribeStart);
    const asked = ['6', '5', '4'];
    const subscriptions = await Promise.all(
      users.map((user, index) => subscribe(user, offering.id, asked[index]!)),
    );
    // Bounded against hanging, not timed: the worker allocates within a check after the time.
    await expect
      .poll(async () => (await consoleOffering(offering.id)).status, { timeout: 30_000 })
      .toBe(OFFERING_STATUS.allocated);
    const published = await operatorApi().call(consoleNewSharesApi.allocation, {
      id: offering.id,
    });
    const again = allocate({
      offeringId: offering.id,
      lotsOffered: 10n,
      book: bookOf(published.lines),
    });
    expect(published).toMatchObject({
      rule: 'bourse-ipo-1',
      lotsOffered: '10',
      lotsRequested: '15',
      lotsAllocated: '10',
      oversubscribed: true,
      input: again.input,
      seed: again.seed,
      result: again.result,
    });

    const page = await openInOwnSession();
    const id = offering.id;
    await testId(page, `new-share-row-${id}`).waitFor();
    expect(await textOf(page, `new-share-status-${id}`)).toBe(text('newShares.status.3'));
    expect(await testId(page, `new-share-cancel-${id}`).count()).toBe(0);
    await testId(page, `new-share-allocation-${id}`).click();
    await testId(page, 'new-share-alloc-seed').waitFor();
    expect(await textOf(page, 'new-share-alloc-rule')).toBe('bourse-ipo-1');
    expect(await textOf(page, 'new-share-alloc-seed')).toBe(published.seed);
    expect(await textOf(page, 'new-share-alloc-input')).toBe(published.input);
    expect(await textOf(page, 'new-share-alloc-result')).toBe(published.result);
    expect(await textOf(page, 'new-share-alloc-offered')).toBe('10');
    expect(await textOf(page, 'new-share-alloc-requested')).toBe('15');
    expect(await textOf(page, 'new-share-alloc-allocated')).toBe('10');
    expect(await textOf(page, 'new-share-alloc-lines')).toBe('3');
    expect(await textOf(page, 'new-share-alloc-oversubscribed')).toBe(text('newShares.alloc.yes'));
    expect(await textOf(page, 'new-share-alloc-check')).toBe(text('newShares.alloc.matches'));
    expect(await textOf(page, 'new-share-verify-command')).toBe(`npm run ipo:verify -- ${id}`);
    await screenshot(page, 'new-shares-allocation-en');
    await page.keyboard.press('Escape');
    await testId(page, 'new-share-allocation').waitFor({ state: 'detached' });

    // Each line's lots in the subscriptions, paid and refunded exactly, the refunds back.
    await testId(page, `new-share-subscriptions-${id}`).click();
    await testId(page, 'new-share-subs-table').waitFor();
    const byPublicId = new Map(again.lines.map((line) => [line.id, line]));
    for (const [index, subscription] of subscriptions.entries()) {
      const line = byPublicId.get(subscription.publicId)!;
      expect(line.lots).toBe(BigInt(asked[index]!));
      await expect
        .poll(() => textOf(page, `new-share-sub-allocated-${subscription.id}`))
        .toBe(String(line.allocated));
      const mine = (
        await client(users[index]!.token).call(newSharesApi.subscriptions, {
          pageNum: 1,
          pageSize: 20,
        })
      ).rows.find((row) => row.id === subscription.id)!;
      expect(mine.status).toBe(line.allocated > 0n ? 1 : 2);
      expect(await textOf(page, `new-share-sub-paid-${subscription.id}`)).toBe(
        `${mine.paid} ${mine.currency}`,
      );
      expect(await textOf(page, `new-share-sub-refunded-${subscription.id}`)).toBe(
        `${mine.refunded} ${mine.currency}`,
      );
      expect(normalize(sub(subscription.frozen, mine.paid!))).toBe(normalize(mine.refunded!));
      expect(normalize(await balance(users[index]!, 'USDT'))).toBe(
        normalize(sub(before[index]!, mine.paid!)),
      );
    }
    await screenshot(page, 'new-shares-allocated-subscriptions-en');
  });

  it('reads in Chinese', async () => {
    const page = await openInOwnSession('zh');
    expect(await textOf(page, 'page-title')).toBe(text('nav.newShares', 'zh'));
    await page.locator('[data-testid^="new-share-row-"]').first().waitFor();
    await screenshot(page, 'new-shares-list-zh');
    const allocatedRow = page.locator('[data-testid^="new-share-allocation-"]').first();
    await allocatedRow.click();
    await testId(page, 'new-share-alloc-seed').waitFor();
    expect(await textOf(page, 'new-share-alloc-check')).toBe(text('newShares.alloc.matches', 'zh'));
    await screenshot(page, 'new-shares-allocation-zh');
  });

  it('is not shown to a support operator', async () => {
    const support = await createOperator(await firstAdminToken(), ['support'], 'desk');
    const page = await browser.newPage('en');
    await signIn(page, support);
    await waitForRoute(page, '/dashboard');
    await testId(page, 'side-menu').waitFor();
    expect(await testId(page, 'menu-newShares').count()).toBe(0);
    await page.goto(consoleUrl('/new-shares'));
    await testId(page, 'page-forbidden').waitFor();
    expect(await textOf(page, 'page-forbidden')).toContain(text('roles.finance'));
  });
});
