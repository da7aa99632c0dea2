/**
 * A partial close through the positions screen, against the server's simulated feed: the close
 * dialog takes the quantity to close (all of it unless changed); for a part it shows the close
 * fee and what comes back for that part (its share of the margin, as the server shares it); the
 * server closes that part and the position stays open with the rest.
 */
import type { Page } from 'playwright-core';
import { closeAmounts, normalize, partShare, scaleOf, toScale, isPositive } from '@bourse/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  appUrl,
  fund,
  operatorToken,
  registerUser,
  text,
  useBrowser,
  type RegisteredUser,
} from './browser';

const POSITIONS = '/pages/position/contractPosition';

interface Position {
  id: number;
  status: number;
  quantity: string;
  entryPrice: string;
  margin: string;
  parentId: number | null;
}

function plain(value: string | null): string {
  return (value ?? '').replace(/,/g, '').replace(/[^\d.+-]/g, '');
}

/** An amount of USDT as the app writes it (2 decimals, more when it has them, up to 4). */
function shownMoney(value: string): string {
  const exact = normalize(value);
  return toScale(exact, Math.min(4, Math.max(2, scaleOf(exact))));
}

function textOf(page: Page, testId: string): Promise<string | null> {
  return page.locator(`[data-testid="${testId}"]`).first().textContent();
}

async function positions(user: RegisteredUser, status: string): Promise<Position[]> {
  const result = await apiCall('GET', '/api/contractPosition/list', {
    token: user.token,
    query: { status, pageNum: '1', pageSize: '20' },
  });
  return (result.rows ?? []) as Position[];
}

describe('a partial close', () => {
  const browser = useBrowser();
  let operator: string;

  beforeAll(async () => {
    operator = await operatorToken();
  });

  it(
    'closes the quantity typed in the close dialog; the rest stays open',
    { timeout: 90_000 },
    async () => {
      const user = await registerUser();
      await fund(user, operator, '2000');
      const quote = await apiCall<{ quoteId: string }>('GET', '/api/balanceConvertRecord/quote', {
        token: user.token,
        query: { fromCurrencyId: '1', toCurrencyId: '3', amount: '2000' },
      });
      await apiCall('POST', '/api/balanceConvertRecord/balanceConvert', {
        token: user.token,
        form: { quoteId: quote.data.quoteId, requestId: `e2e-partial-${Date.now()}` },
      });
      const opened = await apiCall<Position>('POST', '/api/contractPosition/open', {
        token: user.token,
        form: {
          productType: '2',
          productCode: 'BTCUSDT',
          orderDirection: '1',
          leverage: '10',
          quantity: '0.003',
          requestId: `e2e-partial-open-${Date.now()}`,
        },
      });
      expect(opened.code, JSON.stringify(opened)).toBe(200);
      const position = opened.data;

      const page = await browser.newPage({ user });
      await page.goto(appUrl(POSITIONS));
      await page.locator(`[data-testid="position-${position.id}-close"]`).click();
      await page.locator('[data-testid="close-confirm"]').waitFor();
      // All of it unless changed.
      expect(await page.locator('#close-quantity').inputValue()).toBe('0.003');
      await page.locator('#close-quantity').fill('0.001');
      const margin = partShare(position.margin, '0.001', '0.003', 4);
      const closing = closeAmounts(
        { direction: 1, entryPrice: position.entryPrice, quantity: '0.001', margin },
        plain(await textOf(page, 'close-mark')),
        '0.0005',
        4,
      );
      expect(isPositive(closing.fee)).toBe(true);
      await expect
        .poll(async () => plain(await textOf(page, 'close-fee')))
        .toBe(shownMoney(closing.fee));
      expect(plain(await textOf(page, 'close-returns'))).toBe(shownMoney(closing.returned));
      const button = page.locator('.adm-dialog-button', { hasText: text('position_close') });
      await button.click();
      await button.waitFor({ state: 'hidden' });

      await expect.poll(async () => (await positions(user, '2'))[0]?.parentId).toBe(position.id);
      const [part] = await positions(user, '2');
      expect(part).toMatchObject({ quantity: '0.001', margin: toScale(margin, 4), status: 2 });
      const [rest] = await positions(user, '1');
      expect(rest).toMatchObject({ id: position.id, quantity: '0.002', status: 1 });
      await expect
        .poll(async () => plain(await textOf(page, `position-${position.id}-quantity`)))
        .toBe('0.002');
    },
  );
});
