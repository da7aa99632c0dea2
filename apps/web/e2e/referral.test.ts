/**
 * Team and referral in the app against the real server (issue 22's "done when"): an operator
 * sets the commission terms; A invites B, B invites C (each registering from a browser of their
 * own); C opens a contract in the app; within the commission worker's round A and B receive
 * exactly their levels' shares of C's fee (rounded down at USDT's scale), in their balance
 * records (the ledger) and on their team pages. The invite page shows the code, the link that
 * registers with it and its QR code. In English and in Arabic (right to left). Screenshots at
 * 390x844.
 */
import type { Page } from 'playwright-core';
import { LANGUAGES, mul, normalize, toScale } from '@bourse/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  adminCall,
  apiCall,
  appUrl,
  baseUrl,
  expectToast,
  fund,
  operatorToken,
  PASSWORD,
  screenshot,
  text,
  uniqueEmail,
  untranslated,
  useBrowser,
  waitForRoute,
  type RegisteredUser,
} from './browser';

const BTC = '/pages/quoteDetail/quoteDetail?productType=2&productCode=BTCUSDT';
const TEAM = '/pages/team/team';
const SHARE = '/pages/user/iwannashare';
const RATES = { level1: '0.2', level2: '0.1' };

let agents = 0;

/** Registers through the API from a browser of its own (a user agent of its own). */
async function join(inviteCode?: string): Promise<RegisteredUser & { inviteCode: string }> {
  const email = uniqueEmail('team');
  const response = await fetch(new URL('/api/userInfo/reg', baseUrl()), {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      'Content-Type': 'application/x-www-form-urlencoded',
      'User-Agent': `Referral e2e browser ${process.pid}.${++agents}`,
    },
    body: new URLSearchParams({
      regType: '1',
      userAccount: email,
      userPwd: PASSWORD,
      ...(inviteCode ? { inviteCode } : {}),
    }).toString(),
  });
  const result = (await response.json()) as {
    code: number;
    data: { token: string; userInfo: RegisteredUser['userInfo'] & { inviteCode: string } };
  };
  expect(result.code, JSON.stringify(result)).toBe(200);
  return {
    email,
    password: PASSWORD,
    token: result.data.token,
    userInfo: result.data.userInfo,
    inviteCode: result.data.userInfo.inviteCode,
  };
}

async function commissions(user: RegisteredUser) {
  const result = await apiCall('GET', '/api/userTeam/commissionRecordList', {
    token: user.token,
    query: { pageSize: '20' },
  });
  return (result.rows ?? []) as {
    level: number;
    amount: string;
    status: number;
    sourceType: string;
  }[];
}

async function commissionEntries(user: RegisteredUser) {
  const result = await apiCall('GET', '/api/balanceRecord/list', {
    token: user.token,
    query: { pageSize: '20' },
  });
  return ((result.rows ?? []) as { entryType: string; amount: string }[]).filter(
    (row) => row.entryType === 'referral_commission',
  );
}

async function openTeam(page: Page): Promise<void> {
  await page.goto(appUrl(TEAM));
  await page.locator('[data-testid="team-dashboard"]').waitFor();
  await page.locator('[data-testid="team-size"]').waitFor();
}

describe('team and referral', () => {
  const browser = useBrowser();
  let operator: string;

  beforeAll(async () => {
    operator = await operatorToken();
    const saved = await adminCall(operator, '/referral/terms/save', {
      levels: '2',
      rate1: RATES.level1,
      rate2: RATES.level2,
    });
    expect(saved.code, JSON.stringify(saved)).toBe(200);
  });

  it(
    'pays A and B their shares of the fee C pays on a contract opened in the app',
    { timeout: 120_000 },
    async () => {
      const a = await join();
      const b = await join(a.inviteCode);
      const c = await join(b.inviteCode);
      await fund(c, operator, '5000');
      const quote = await apiCall<{ quoteId: string }>('GET', '/api/balanceConvertRecord/quote', {
        token: c.token,
        query: { fromCurrencyId: '1', toCurrencyId: '3', amount: '5000' },
      });
      const converted = await apiCall('POST', '/api/balanceConvertRecord/balanceConvert', {
        token: c.token,
        form: { quoteId: quote.data.quoteId, requestId: `e2e-ref-convert-${Date.now()}` },
      });
      expect(converted.code, JSON.stringify(converted)).toBe(200);

      // C opens a long in the app.
      const page = await browser.newPage({ user: c });
      await page.goto(appUrl(BTC));
      await page.locator('[data-testid="trade-mode-contract"]').click();
      await page.locator('[data-testid="contract-panel"]').waitFor();
      await page.locator('[data-testid="contract-side-buy"]').click();
      await page.locator('[data-testid="contract-leverage-10"]').click();
      await page.locator('#contract-size').fill('0.01');
      await page.locator('[data-testid="contract-submit"]').click();
      await page.locator('[data-testid="contract-confirm"]').waitFor();
      const confirm = page.locator('.adm-dialog-button', { hasText: text('common_confirm') });
      await confirm.click();
      await expectToast(page, text('trade_contractOpened'));
      const opened = await apiCall('GET', '/api/contractPosition/list', {
        token: c.token,
        query: { status: '1', pageNum: '1', pageSize: '5' },
      });
      const position = (opened.rows as { id: number; openFee: string }[])[0]!;
      const fee = normalize(position.openFee);
      const shareOfB = toScale(mul(fee, RATES.level1), 4, 'down');
      const shareOfA = toScale(mul(fee, RATES.level2), 4, 'down');

      // Within the worker's round (every few seconds), each gets exactly their level's share.
      await expect
        .poll(async () => (await commissions(b)).map((row) => [row.level, row.amount]), {
          timeout: 30_000,
        })
        .toEqual([[1, shareOfB]]);
      await expect
        .poll(async () => (await commissions(a)).map((row) => [row.level, row.amount]), {
          timeout: 30_000,
        })
        .toEqual([[2, shareOfA]]);
      // In the ledger: one balance change each, of that amount.
      expect((await commissionEntries(b)).map((row) => normalize(row.amount))).toEqual([
        normalize(shareOfB),
      ]);
      expect((await commissionEntries(a)).map((row) => normalize(row.amount))).toEqual([
        normalize(shareOfA),
      ]);

      // A's team page: two members (levels 1 and 2), the commission record.
      const teamA = await browser.newPage({ user: a });
      await openTeam(teamA);
      await expect.poll(() => teamA.locator('[data-testid="team-size"]').textContent()).toBe('2');
      expect(await teamA.locator('[data-testid="team-direct"]').textContent()).toBe('1');
      await teamA.locator('[data-testid="team-member"]').first().waitFor();
      await screenshot(teamA, 'team-members');
      await teamA.locator('[data-testid="team-section-commissions"]').click();
      await teamA.locator('[data-testid="team-commission"]').first().waitFor();
      expect(await teamA.locator('[data-testid="team-commission-amount"]').textContent()).toBe(
        `+${shareOfA} USDT`,
      );
      await screenshot(teamA, 'team-commissions');
      await teamA.locator('[data-testid="team-section-rules"]').click();
      await teamA.locator('[data-testid="team-rates-1"]').waitFor();
      expect(await teamA.locator('[data-testid="team-rates-2"]').textContent()).toContain('10%');
      await screenshot(teamA, 'team-rules');

      // B's, in Arabic: right to left, the level-1 commission.
      const teamB = await browser.newPage({ user: b, storage: { locale: 'ar' } });
      await openTeam(teamB);
      expect(await teamB.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await teamB.locator('[data-testid="team-section-commissions"]').click();
      await teamB.locator('[data-testid="team-commission"]').first().waitFor();
      expect(await teamB.locator('[data-testid="team-commission-amount"]').textContent()).toBe(
        `+${shareOfB} USDT`,
      );
      await screenshot(teamB, 'team-commissions-ar');
    },
  );

  for (const lang of ['en', 'ar'] as const) {
    it(`shows the invitation code, link and QR code (${lang})`, async () => {
      const user = await join();
      const page = await browser.newPage({ user, storage: lang === 'ar' ? { locale: lang } : {} });
      await page.goto(appUrl(SHARE));
      await page.locator('[data-testid="share-qr"]').waitFor();
      expect(await page.locator('[data-testid="share-code"]').textContent()).toBe(user.inviteCode);
      const link = (await page.locator('[data-testid="share-link"]').textContent()) ?? '';
      expect(link).toContain(`/pages/user/register?inviteCode=${user.inviteCode}`);
      await screenshot(page, `share-${lang}`);
      // The link opens registration with the code filled in.
      const visitor = await browser.newPage();
      await visitor.goto(link);
      await waitForRoute(visitor, '/pages/user/register');
      await expect
        .poll(() => visitor.locator('input[value="' + user.inviteCode + '"]').count())
        .toBe(1);
    });
  }

  describe('in every language', () => {
    let inviter: RegisteredUser;

    beforeAll(async () => {
      inviter = await join();
      await join((inviter as RegisteredUser & { inviteCode: string }).inviteCode);
    });

    for (const { key: locale, rtl } of LANGUAGES)
      it(`shows the team and invite screens translated (${locale})`, async () => {
        const page = await browser.newPage({ user: inviter, storage: { locale } });
        await openTeam(page);
        const steps: [string, string][] = [
          ['members', '[data-testid="team-member"]'],
          ['commissions', '[data-testid="empty-state"]'],
          ['rules', '[data-testid="team-rates-1"]'],
        ];
        for (const [section, ready] of steps) {
          await page.locator(`[data-testid="team-section-${section}"]`).click();
          await page.locator(ready).first().waitFor();
          expect(await page.evaluate(() => document.documentElement.dir)).toBe(rtl ? 'rtl' : 'ltr');
          expect(await untranslated(page), `${section} (${locale})`).toEqual([]);
        }
        await page.evaluate((hash) => (window.location.hash = hash), SHARE);
        await page.locator('[data-testid="share-qr"]').waitFor();
        expect(await untranslated(page), `share (${locale})`).toEqual([]);
        if (locale === 'th' || locale === 'rus') await screenshot(page, `share-${locale}`);
      });
  });
});
