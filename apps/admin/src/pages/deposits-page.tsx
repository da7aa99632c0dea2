/**
 * The deposit queue (finance, admin): a review queue (components/review-queue.tsx) whose requests
 * show their channel and amount. A request opens in a drawer (components/deposit-review.tsx,
 * loaded then) with its proof, its channel, amount and the user's other deposits, to approve or
 * reject with a reason.
 */
import { lazy } from 'react';
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import type { ReviewedRecharge } from '@bourse/shared';
import { formatAmount } from '../lib/format';
import { ChannelCell } from '../components/channel-cell';
import { ReviewQueue } from '../components/review-queue';

const DepositReview = lazy(() => import('../components/deposit-review'));

const columns = (t: TFunction): TableColumnsType<ReviewedRecharge> => [
  { title: t('review.channel'), render: (_, row) => <ChannelCell record={row} /> },
  {
    title: t('review.amount'),
    align: 'right',
    render: (_, row) => (
      <strong style={{ whiteSpace: 'nowrap' }}>{formatAmount(row.amount, row.currencyName)}</strong>
    ),
  },
];

export default function DepositsPage() {
  return <ReviewQueue kind="recharge" columns={columns} Review={DepositReview} />;
}
