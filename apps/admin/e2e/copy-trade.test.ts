/**
 * Copy trading through the console at 1440x900 (issue 25):
 * - a finance operator sets the settings (a rate above 100 % refused on its field first): the
 *   highest profit-share rate typed in percent is stored as its fraction, the track record and the
 *   delay as typed;
 * - two users with the advanced identity level apply to lead (a track record of 0 now suffices):
 *   the queue shows each with their closed trades and identity level; the operator approves one
 *   (a lead trader now) and rejects the other with a reason (first refused without one), which the
 *   user reads in their status;
 * - on the lead traders tab the operator caps the trader's followers, suspends the trader with a
 *   reason (the follower is notified, the relation kept; a new follow is refused) and resumes;
 *   the statistics are shown, never editable;
 * - every change is in the audit log under the operator, each with its label;
 * - a support operator has no such page. The page is pictured in English and Chinese.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import {
  APPLICATION_STATUS,
  RELATION_STATUS,
  TRADER_STATUS,
  consoleCopyTradingApi,
  consoleIdentityApi,
  copyTradingApi,
  identityApi,
  messagesApi,
  normalize,
  operatorsApi,
  tradingApi,
  type ConsoleTrader,
} from '@bourse/shared';
import {
  actionLabel,
  client,
  consoleUrl,
  createOperator,
  firstAdminToken,
  fundUsdt,
  openInSession,
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

const run = Date.now().toString(36);
let operator: Credentials & { id: number };
let operatorSession: string;
let browser: ConsoleHarness;
let sequence = 0;
const requestId = () => `console-copy-${run}-${++sequence}`;

const testId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const textOf = async (page: Page, id: string) => (await testId(page, id).textContent()) ?? '';
const operatorApi = () => client(operatorSession);

/** The page in the operator's session (each sign-in would wait for a fresh two-factor step). */
const openConsole = (language: Language = 'en'): Promise<Page> =>
  openInSession(browser, operatorSession, '/copy-trade', 'copy-applications-table', language);

async function openTab(page: Page, tab: string, ready: string): Promise<void> {
  await testId(page, `copy-tab-${tab}`).click();
  await testId(page, ready).waitFor();
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
}

/** A form item's refusal (the item holding the input of `inputTestId`). */
const fieldError = (page: Page, inputTestId: string) =>
  page
    .locator('.ant-form-item', { has: testId(page, inputTestId) })
    .locator('.ant-form-item-explain-error');

async function documentImage(label: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400">
    <rect width="640" height="400" rx="24" fill="#e8eef9"/>
    <text x="32" y="60" font-family="sans-serif" font-size="32" fill="#274690">PASSPORT · ${label}</text>
  </svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 70 }).toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

/** A user with the advanced identity level (applying to lead needs it by default). */
async function advancedUser(name: string): Promise<TestUser> {
  const user = await registerUser();
  const admin = client(await firstAdminToken());
  const app = client(user.token);
  const idNumber = `P${user.id}`.padEnd(8, '3');
  const basic = await app.call(identityApi.authApply, {
    authLevel: 0,
    realName: name,
    idType: 2,
    idNumber,
    requestId: requestId(),
  });
  await admin.call(consoleIdentityApi.approveIdentity, { id: basic.id });
  const advanced = await app.call(identityApi.authApply, {
    authLevel: 1,
    realName: name,
    idType: 2,
    idNumber,
    frontImage: await documentImage('FRONT'),
    backImage: await documentImage('BACK'),
    holdImage: await documentImage('HELD'),
    requestId: requestId(),
  });
  await admin.call(consoleIdentityApi.approveIdentity, { id: advanced.id });
  return user;
}

/** One live contract opened and closed at market: the trader's record has a close. */
async function tradeOnce(user: TestUser): Promise<void> {
  const app = client(user.token);
  const position = await app.call(tradingApi.openContract, {
    productType: 2,
    productCode: 'BTCUSDT',
    orderDirection: 1,
    leverage: 10,
    quantity: '0.001',
    requestId: requestId(),
  });
  await app.call(tradingApi.closeContract, { id: position.id, requestId: requestId() });
}

async function consoleTrader(traderId: number): Promise<ConsoleTrader> {
  const page = await operatorApi().call(consoleCopyTradingApi.traders, {
    pageNum: 1,
    pageSize: 20,
    userAccount: String(traderId),
  });
  const trader = page.rows.find((row) => row.traderId === traderId);
  expect(trader, `trader ${traderId} in the console's list`).toBeDefined();
  return trader!;
}

beforeAll(async () => {
  operator = await createOperator(await firstAdminToken(), ['finance'], 'copy');
  operatorSession = await operatorToken(operator);
});

describe('copy trading in the console', () => {
  browser = useConsole();
  let leader: TestUser;
  let refused: TestUser;
  let follower: TestUser;
  const rejectReason = 'Too few closed trades on the live book for a public record.';
  const suspendReason = 'Under review after a complaint about the profile text.';

  it('sets the settings, reviews applications, caps, suspends and resumes a trader, audited', async () => {
    [leader, refused, follower] = await Promise.all([
      advancedUser('Grace Leader'),
      advancedUser('Alan Refused'),
      registerUser(),
    ]);
    const page = await openConsole();
    expect(await textOf(page, 'page-title')).toBe(text('nav.copyTrade'));

    // The settings: a rate above 100 % refused on its field, then saved.
    await openTab(page, 'settings', 'copy-settings');
    await testId(page, 'copy-settings-rate').fill('150');
    await testId(page, 'copy-settings-save').click();
    await expect
      .poll(() => fieldError(page, 'copy-settings-rate').textContent())
      .toBe(serverText('hint_paramOutOfRange', 'en', ['maxProfitShareRate']));
    await testId(page, 'copy-settings-rate').fill('25');
    await testId(page, 'copy-settings-trades').fill('0');
    await testId(page, 'copy-settings-delay').fill('2');
    await testId(page, 'copy-settings-save').click();
    await expect
      .poll(() => operatorApi().call(consoleCopyTradingApi.settings))
      .toEqual({ maxProfitShareRate: '0.25', minClosedTrades: 0, positionDelayMinutes: 2 });
    await screenshot(page, 'copy-trade-settings-en');

    // Two applications arrive in the queue by themselves.
    const [leaderStatus, refusedStatus] = await Promise.all(
      [leader, refused].map((user) =>
        client(user.token).call(copyTradingApi.apply, { requestId: requestId() }),
      ),
    );
    const leaderApplication = leaderStatus!.application!.id;
    const refusedApplication = refusedStatus!.application!.id;
    await openTab(page, 'applications', 'copy-applications-table');
    for (const id of [leaderApplication, refusedApplication]) {
      await testId(page, `copy-application-${id}`).waitFor({ timeout: 10_000 });
      expect(await textOf(page, `copy-application-status-${id}`)).toBe(
        text('copyTrade.applications.status.0'),
      );
      expect(await textOf(page, `copy-application-trades-${id}`)).toBe('0');
      expect(await textOf(page, `copy-application-level-${id}`)).toBe(text('copyTrade.level.1'));
    }
    await screenshot(page, 'copy-trade-applications-en');

    await testId(page, `copy-application-approve-${leaderApplication}`).click();
    await testId(page, `copy-application-approve-confirm-${leaderApplication}`).click();
    // Approved ones leave the pending queue.
    await testId(page, `copy-application-${leaderApplication}`).waitFor({ state: 'detached' });
    const approved = await client(leader.token).call(copyTradingApi.leadStatus);
    expect(approved.application?.status).toBe(APPLICATION_STATUS.approved);
    expect(approved.trader?.status).toBe(TRADER_STATUS.active);

    await testId(page, `copy-application-reject-${refusedApplication}`).click();
    await testId(page, 'copy-application-reject-confirm').click();
    await expect
      .poll(() => fieldError(page, 'copy-application-reject-reason').textContent())
      .toBe(serverText('hint_paramRequired', 'en', ['reason']));
    await testId(page, 'copy-application-reject-reason').fill(rejectReason);
    // The refusal goes from under the reason once it is typed, before anything is sent.
    await fieldError(page, 'copy-application-reject-reason').waitFor({ state: 'detached' });
    await testId(page, 'copy-application-reject-confirm').click();
    await testId(page, `copy-application-${refusedApplication}`).waitFor({ state: 'detached' });
    const rejected = await client(refused.token).call(copyTradingApi.leadStatus);
    expect(rejected.application).toMatchObject({
      status: APPLICATION_STATUS.rejected,
      reason: rejectReason,
    });
    expect(rejected.trader).toBeNull();
    // Reviewed ones under all statuses, with their reason and reviewer.
    await testId(page, 'copy-applications-show-all').click();
    await testId(page, `copy-application-reason-${refusedApplication}`).waitFor();
    expect(await textOf(page, `copy-application-reason-${refusedApplication}`)).toBe(rejectReason);
    expect(await textOf(page, `copy-application-status-${leaderApplication}`)).toBe(
      text('copyTrade.applications.status.1'),
    );

    // A follower of the new trader (told of the suspension below).
    const relation = await client(follower.token).call(copyTradingApi.follow, {
      traderId: leader.id,
      mode: 1,
      amount: '10',
      maxOpen: 3,
      budget: '50',
      requestId: requestId(),
    });

    // The trader trades once: the statistics computed from that close, read only here.
    await fundUsdt(leader, '500');
    await tradeOnce(leader);

    // The trader: statistics read only, the follower counted; a cap on followers.
    await openTab(page, 'traders', 'copy-traders-table');
    const id = leader.id;
    await testId(page, `copy-trader-${id}`).waitFor();
    await expect
      .poll(() => textOf(page, `copy-trader-trades-${id}`), { timeout: 20_000 })
      .toBe(text('copyTrade.traders.tradesLine_one', 'en', { count: 1 }));
    const computed = await consoleTrader(id);
    expect(computed.windows.find((window) => window.period === 'all')?.trades).toBe(1);
    expect(await textOf(page, `copy-trader-status-${id}`)).toBe(text('copyTrade.traders.status.1'));
    expect(await textOf(page, `copy-trader-followers-${id}`)).toBe(
      text('copyTrade.traders.followersLine', 'en', { now: 1, total: 1 }),
    );
    expect(await textOf(page, `copy-trader-cap-${id}`)).toBe(text('copyTrade.traders.noCap'));
    expect(await testId(page, 'copy-traders-table').locator('input').count()).toBe(0);
    await testId(page, `copy-trader-cap-edit-${id}`).click();
    await testId(page, 'copy-cap-input').fill('3');
    await testId(page, 'copy-cap-confirm').click();
    await expect
      .poll(() => textOf(page, `copy-trader-cap-${id}`))
      .toBe(text('copyTrade.traders.capLine', 'en', { cap: 3 }));
    expect((await consoleTrader(id)).maxFollowersCap).toBe(3);

    // Suspended with the reason followers read: the relation kept, new follows refused.
    await testId(page, `copy-trader-suspend-${id}`).click();
    await testId(page, 'copy-trader-status-effects').waitFor();
    await testId(page, 'copy-trader-status-reason').fill(suspendReason);
    await screenshot(page, 'copy-trade-suspend-en');
    expect(await testId(page, 'copy-trader-suspend-confirm').getAttribute('class')).toContain(
      'ant-btn-dangerous',
    );
    await testId(page, 'copy-trader-suspend-confirm').click();
    await expect
      .poll(() => textOf(page, `copy-trader-status-${id}`))
      .toBe(text('copyTrade.traders.status.2'));
    expect(await textOf(page, `copy-trader-reason-${id}`)).toBe(suspendReason);
    const suspended = await consoleTrader(id);
    expect(suspended).toMatchObject({
      status: TRADER_STATUS.suspended,
      suspendedReason: suspendReason,
      followers: 1,
    });
    const notices = await client(follower.token).call(messagesApi.notificationList, {
      pageNum: 1,
      pageSize: 20,
    });
    expect(notices.rows.map((row) => row.type)).toContain('copyTraderSuspended');
    const kept = await client(follower.token).call(copyTradingApi.relations, {
      pageNum: 1,
      pageSize: 20,
    });
    expect(kept.rows.find((row) => row.id === relation.id)?.status).toBe(RELATION_STATUS.active);
    const another = await registerUser();
    await expect(
      client(another.token).call(copyTradingApi.follow, {
        traderId: id,
        mode: 1,
        amount: '10',
        maxOpen: 3,
        budget: '50',
        requestId: requestId(),
      }),
    ).rejects.toMatchObject({ msg: 'hint_copyTraderSuspended' });
    await screenshot(page, 'copy-trade-traders-en');

    await testId(page, `copy-trader-resume-${id}`).click();
    await testId(page, 'copy-trader-status-reason').fill('The profile text was corrected.');
    // Resuming restores: its confirm is the plain primary button, not the warning red one.
    expect(await testId(page, 'copy-trader-resume-confirm').getAttribute('class')).not.toContain(
      'ant-btn-dangerous',
    );
    await testId(page, 'copy-trader-resume-confirm').click();
    await expect
      .poll(() => textOf(page, `copy-trader-status-${id}`))
      .toBe(text('copyTrade.traders.status.1'));
    expect((await consoleTrader(id)).status).toBe(TRADER_STATUS.active);

    // The follower unfollows (copies kept): the relation ends, settled once (reason 2).
    const ended = await client(follower.token).call(copyTradingApi.unfollow, {
      relationId: relation.id,
      closeMode: 2,
      requestId: requestId(),
    });
    expect(ended.status).toBe(RELATION_STATUS.ended);
    const settled = await client(follower.token).call(copyTradingApi.settlements, {
      pageNum: 1,
      pageSize: 20,
      relationId: relation.id,
    });
    expect(settled.rows).toHaveLength(1);
    const settlement = settled.rows[0]!;
    expect(settlement.reason).toBe(2);

    // The relation and the report: every figure as the server computed it.
    await openTab(page, 'relations', 'copy-relations-table');
    await testId(page, `copy-relation-${relation.id}`).waitFor();
    expect(await textOf(page, `copy-relation-status-${relation.id}`)).toBe(
      text('copyTrade.relations.status.2'),
    );
    expect(await textOf(page, `copy-relation-hwm-${relation.id}`)).toBe(
      text('copyTrade.relations.hwmLine', 'en', { amount: ended.hwm }),
    );
    await screenshot(page, 'copy-trade-relations-en');
    await openTab(page, 'settlements', 'copy-report-table');
    const day = `${settlement.day}-${settlement.currency}`;
    await testId(page, `copy-report-settlements-${day}`).waitFor();
    expect(await textOf(page, `copy-report-settlements-${day}`)).toBe('1');
    // The report sums the day's settlements; the relation's mark is the settlement's mark after.
    const amountOf = async (id: string) => normalize((await textOf(page, id)).split(' ')[0]!);
    expect(await amountOf(`copy-report-paid-${day}`)).toBe(normalize(settlement.paid));
    expect(await amountOf(`copy-settled-hwm-${relation.id}`)).toBe(normalize(settlement.hwmAfter));
    await screenshot(page, 'copy-trade-settlements-en');

    // Every change in the audit log, under this operator, each with its label.
    const audit = await client(await firstAdminToken()).call(operatorsApi.audit, {
      pageNum: 1,
      pageSize: 50,
      operatorId: operator.id,
    });
    const actions = audit.rows.map((row) => row.action);
    for (const action of [
      'copyTrade.settings',
      'copyTrade.approve',
      'copyTrade.reject',
      'copyTrade.cap',
      'copyTrade.suspend',
      'copyTrade.resume',
    ]) {
      expect(actions).toContain(action);
      expect(actionLabel(action)).not.toBe('');
      expect(actionLabel(action, 'zh')).not.toBe('');
    }
    const rejection = audit.rows.find((row) => row.action === 'copyTrade.reject');
    expect(JSON.stringify(rejection?.after)).toContain(rejectReason);
  });

  it('reads in Chinese', async () => {
    const page = await openConsole('zh');
    expect(await textOf(page, 'page-title')).toBe(text('nav.copyTrade', 'zh'));
    /** No key shown in place of its text, on the tab open now. */
    const noRawKeys = async () =>
      expect(await testId(page, 'copy-trade-page').innerText()).not.toMatch(/copyTrade\.\w/);
    await testId(page, 'copy-applications-show-all').click();
    await page.locator('[data-testid^="copy-application-status-"]').first().waitFor();
    await noRawKeys();
    await screenshot(page, 'copy-trade-applications-zh');
    await openTab(page, 'traders', 'copy-traders-table');
    await page.locator('[data-testid^="copy-trader-status-"]').first().waitFor();
    expect(await textOf(page, `copy-trader-trades-${leader.id}`)).toBe(
      text('copyTrade.traders.tradesLine_other', 'zh', { count: 1 }),
    );
    await noRawKeys();
    await screenshot(page, 'copy-trade-traders-zh');
    await openTab(page, 'relations', 'copy-relations-table');
    await page.locator('[data-testid^="copy-relation-status-"]').first().waitFor();
    await noRawKeys();
    await screenshot(page, 'copy-trade-relations-zh');
    await openTab(page, 'settlements', 'copy-report-table');
    await page.locator('[data-testid^="copy-report-day-"]').first().waitFor();
    await noRawKeys();
    await screenshot(page, 'copy-trade-settlements-zh');
    await openTab(page, 'settings', 'copy-settings');
    expect(await testId(page, 'copy-settings-rate').inputValue()).toBe('25');
    await noRawKeys();
    await screenshot(page, 'copy-trade-settings-zh');
  });

  it('is not shown to a support operator', async () => {
    const support = await createOperator(await firstAdminToken(), ['support'], 'desk');
    const page = await browser.newPage('en');
    await signIn(page, support);
    await waitForRoute(page, '/dashboard');
    await testId(page, 'side-menu').waitFor();
    expect(await testId(page, 'menu-copyTrade').count()).toBe(0);
    await page.goto(consoleUrl('/copy-trade'));
    await testId(page, 'page-forbidden').waitFor();
    expect(await textOf(page, 'page-forbidden')).toContain(text('roles.finance'));
    await expect(
      client(await operatorToken(support)).call(consoleCopyTradingApi.traders, {
        pageNum: 1,
        pageSize: 20,
      }),
    ).rejects.toMatchObject({ status: 403 });
    // Admins see it as finance does.
    const admins = await client(await firstAdminToken()).call(consoleCopyTradingApi.traders, {
      pageNum: 1,
      pageSize: 20,
    });
    expect(admins.rows.map((row) => row.traderId)).toContain(leader.id);
  });
});
