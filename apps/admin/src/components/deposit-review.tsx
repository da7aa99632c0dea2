/**
 * A deposit under review, in a drawer (components/review-drawer.tsx): the amount, the user, the
 * channel, the proof (zoom in antd's preview) and the user's other deposits; approving credits it
 * once, rejecting needs the reason the user reads. Loaded when a request is opened, so the queue's
 * first screen carries none of it.
 */
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ReviewedRecharge } from '@bourse/shared';
import { formatTime } from '../lib/format';
import { ChannelCell } from './channel-cell';
import { ProofImage } from './proof-image';
import {
  amountOf,
  detail,
  multiLine,
  RequestHistory,
  ReviewDrawer,
  type KindDetails,
} from './review-drawer';

export default function DepositReview({
  record,
  onClose,
}: {
  record: ReviewedRecharge;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const details: KindDetails = {
    headline: { label: t('review.amount'), text: amountOf(record) },
    channel: <ChannelCell record={record} />,
    closing: [
      detail(t('deposits.remark'), multiLine(record.remark), 2),
      detail(t('review.reviewed'), record.reviewTime && formatTime(record.reviewTime), 2),
    ],
  };
  return (
    <ReviewDrawer kind="recharge" record={record} onClose={onClose} details={details}>
      <Typography.Title level={5}>{t('deposits.proof')}</Typography.Title>
      <div style={{ marginBottom: 24 }}>
        {record.hasProof ? (
          <ProofImage id={record.id} />
        ) : (
          <Typography.Text type="secondary">{t('deposits.noProof')}</Typography.Text>
        )}
      </div>
      <RequestHistory kind="recharge" userId={record.userId} testId="user-history" />
    </ReviewDrawer>
  );
}
