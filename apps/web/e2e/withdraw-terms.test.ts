/**
 * Withdrawal terms only get worse with notice: when the operator raises the minimum and the fee
 * rate of a channel, the withdraw form keeps today's terms and says, under the channel, from when
 * the new ones apply. The test takes the announced changes back at the end (saving the channel
 * with the values in force), so the other browser tests see the channel as seeded.
 */
import { formatDateTime } from '@bourse/shared';
import { describe, expect, it } from 'vitest';
import {
  adminCall,
  apiCall,
  appUrl,
  operatorToken,
  registerUser,
  screenshot,
  text,
  useBrowser,
} from './browser';

const WITHDRAW = '/pages/user/withdrawl';

function fill(template: string, ...params: string[]): string {
  return template.replace(/\{(\d)\}/g, (_whole, index: string) => params[Number(index)] ?? '');
}

interface StoredChannel {
  id: number;
  channel_type: number;
  channel_name: string;
  currency_id: number;
  network: string | null;
  fee_rate: string;
  fixed_fee: string;
  min_amount: string;
  max_amount: string;
  daily_limit: string;
  remark: string;
  sort: number;
  is_visible: number;
}

/** The channel's save form with the stored values, and `changes` over them. */
function form(
  channel: StoredChannel,
  changes: Record<string, string> = {},
): Record<string, string> {
  return {
    id: String(channel.id),
    channelType: String(channel.channel_type),
    channelName: channel.channel_name,
    currencyId: String(channel.currency_id),
    network: channel.network ?? '',
    feeRate: channel.fee_rate,
    fixedFee: channel.fixed_fee,
    minAmount: channel.min_amount,
    maxAmount: channel.max_amount,
    dailyLimit: channel.daily_limit,
    remark: channel.remark,
    sort: String(channel.sort),
    isVisible: String(channel.is_visible),
    ...changes,
  };
}

describe('withdrawal terms notice', () => {
  const browser = useBrowser();

  it('tells the user under the chosen channel from when its terms get worse', async () => {
    const operator = await operatorToken();
    const channels = await apiCall<never>('GET', '/admin-api/channels/withdraw?pageSize=100', {
      token: operator,
    });
    expect(channels.code, JSON.stringify(channels)).toBe(200);
    const bank = (channels.rows as StoredChannel[]).find(
      (row) => row.channel_name === 'Bank transfer (USD)',
    )!;
    expect(bank).toBeDefined();

    const saved = await adminCall<{ pendingChanges: { term: string; effectiveTime: string }[] }>(
      operator,
      '/channels/withdraw/save',
      form(bank, { minAmount: '50', feeRate: '0.01' }),
    );
    try {
      expect(saved.code, JSON.stringify(saved)).toBe(200);
      const effectiveTime = saved.data.pendingChanges[0]!.effectiveTime;
      expect(saved.data.pendingChanges.map((change) => change.term)).toEqual([
        'minAmount',
        'feeRate',
      ]);

      const user = await registerUser();
      const page = await browser.newPage({ user });
      await page.goto(appUrl(WITHDRAW));
      await page.locator('[data-testid="withdraw-form"]').waitFor();
      await page.locator('[data-testid="withdraw-currency-USD"]').click();
      await page.getByRole('button', { name: /Bank transfer \(USD\)/ }).click();

      // Today's terms still apply; the note says what changes and when.
      const terms = page.locator('[data-testid="withdraw-terms"]');
      await terms.waitFor();
      expect(await terms.textContent()).toContain('20.00 – 50,000.00 USD');
      const note = page.locator('[data-testid="withdraw-terms-changes"]');
      await note.waitFor();
      const from = formatDateTime(effectiveTime);
      expect(await note.locator('span.notice').allTextContents()).toEqual([
        fill(text('withdraw_termsFrom_minAmount'), from, '50.00', 'USD'),
        fill(text('withdraw_termsFrom_feeRate'), from, '1%'),
      ]);
      expect(await note.textContent()).toContain(text('withdraw_termsKeep'));
      expect(await note.getAttribute('aria-label')).toBe(text('withdraw_termsChanges'));
      await screenshot(page, 'withdraw-terms-notice');
    } finally {
      // The values in force again: the announced changes are taken back.
      const restored = await adminCall<{ pendingChanges: unknown[] }>(
        operator,
        '/channels/withdraw/save',
        form(bank),
      );
      expect(restored.code, JSON.stringify(restored)).toBe(200);
      expect(restored.data.pendingChanges).toEqual([]);
    }
  });
});
