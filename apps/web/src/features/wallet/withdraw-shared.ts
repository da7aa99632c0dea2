/**
 * What the withdraw form and the withdrawal records share: amounts at their currency's scale with
 * the thousands switch, the statuses, the destination as text, and the caches a withdrawal
 * changes.
 */
import type { QueryClient } from '@tanstack/react-query';
import { WITHDRAW_STATUS, type WithdrawDestination } from '@bourse/shared';
import { money as tradeMoney } from '../../lib/trade';

/**
 * An amount as lists show it: the app's decimals (`app_decimal_no`), more when the value has
 * them, at most the currency's scale when it is known ("1.0000" USDT shows 1.00, 0.0002 BTC stays
 * 0.0002), grouped when the thousands switch is on.
 */
export function money(value: string | null | undefined, scale: number | undefined): string {
  return tradeMoney(value, scale ?? Number.POSITIVE_INFINITY);
}

/** Translation keys of the statuses, and the colour each is shown in. */
export const STATUS_LABEL: Record<number, string> = {
  [WITHDRAW_STATUS.reviewing]: 'withdraw_status_reviewing',
  [WITHDRAW_STATUS.paid]: 'withdraw_status_paid',
  [WITHDRAW_STATUS.rejected]: 'withdraw_status_rejected',
  [WITHDRAW_STATUS.cancelled]: 'withdraw_status_cancelled',
};

export const STATUS_COLOR: Record<number, string> = {
  [WITHDRAW_STATUS.reviewing]: 'var(--accent)',
  [WITHDRAW_STATUS.paid]: 'var(--success)',
  [WITHDRAW_STATUS.rejected]: 'var(--danger)',
  [WITHDRAW_STATUS.cancelled]: 'var(--text-muted)',
};

/** Where the money goes, as one line (numbers masked as the server sent them). */
export function destinationText(destination: WithdrawDestination | null | undefined): string {
  if (!destination) return '- -';
  const parts =
    destination.kind === 'bank'
      ? [destination.bankName, destination.cardNumber, destination.accountName]
      : [destination.network, destination.address];
  return parts.filter(Boolean).join(' · ') || '- -';
}

/** After a withdrawal or its cancel: balances, records and today's limits change. */
export async function invalidateWithdrawCaches(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [
      'balances',
      'userBalance',
      'personCenterPanelData',
      'balanceRecords',
      'withdrawRecords',
      'withdrawChannels',
    ].map((key) => queryClient.invalidateQueries({ queryKey: [key] })),
  );
}
