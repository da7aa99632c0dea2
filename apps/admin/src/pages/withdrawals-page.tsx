/**
 * The withdrawal queue (finance, admin): a review queue (components/review-queue.tsx) whose
 * requests show their amount with the fee and their destination. A request opens in a drawer
 * (components/withdrawal-review.tsx, loaded then) with its destination in full, the amount, the
 * fee and what was frozen, and the user's recent activity, to mark paid or reject with a reason.
 */
import { lazy } from 'react';
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import type { ReviewedWithdraw, WithdrawDestination } from '@bourse/shared';
import { formatAmount } from '../lib/format';
import { ReviewQueue } from '../components/review-queue';
import { AmountWithFee, Muted } from '../components/cells';

const WithdrawalReview = lazy(() => import('../components/withdrawal-review'));

/** The destination on one line, for the table. */
function destinationLine(destination: WithdrawDestination): string {
  return destination.kind === 'bank'
    ? [destination.bankName, destination.cardNumber].filter(Boolean).join(' · ')
    : [destination.network, destination.address].filter(Boolean).join(' · ');
}

const columns = (t: TFunction): TableColumnsType<ReviewedWithdraw> => [
  {
    title: t('review.amount'),
    align: 'right',
    render: (_, row) => (
      <AmountWithFee fee={row.fee}>
        <strong>{formatAmount(row.amount, row.currencyName)}</strong>
      </AmountWithFee>
    ),
  },
  {
    title: t('withdrawals.destination'),
    // Cut to one line here (the drawer shows it whole); a column `ellipsis` would fix the
    // whole table's layout and squeeze the others.
    render: (_, row) => (
      <div
        style={{
          lineHeight: 1.35,
          maxWidth: 220,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
        }}
        title={destinationLine(row.destination)}
      >
        <div style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{row.channelName}</div>
        <Muted small>{destinationLine(row.destination)}</Muted>
      </div>
    ),
  },
];

export default function WithdrawalsPage() {
  return <ReviewQueue kind="withdraw" columns={columns} Review={WithdrawalReview} />;
}
