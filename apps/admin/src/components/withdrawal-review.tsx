/**
 * A withdrawal under review, in a drawer (components/review-drawer.tsx): the destination in full
 * (the operator pays it: bank, holder and card number, or network and address, each to copy), the
 * amount, the fee and what was frozen, and the user's recent withdrawals and deposits. Marking it
 * paid takes the frozen amount and fee out of the account; rejecting releases them at once, with
 * the reason the user reads. Loaded when a request is opened, so the queue's first screen carries
 * none of it.
 */
import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { operatorsApi, type ReviewedWithdraw, type WithdrawDestination } from '@bourse/shared';
import { useOperator } from '../app/operator';
import { mayCall } from '../lib/access';
import { formatAmount, formatTime } from '../lib/format';
import { amountOf, detail, RequestHistory, ReviewDrawer, type KindDetails } from './review-drawer';

/** The destination in full, each part to copy. */
function DestinationDetails({ destination }: { destination: WithdrawDestination }) {
  const { t } = useTranslation();
  const rows =
    destination.kind === 'bank'
      ? [
          [t('withdrawals.bankName'), destination.bankName],
          [t('withdrawals.accountName'), destination.accountName],
          [t('withdrawals.cardNumber'), destination.cardNumber],
        ]
      : [
          [t('withdrawals.network'), destination.network],
          [t('withdrawals.address'), destination.address],
        ];
  return (
    <Descriptions column={1} size="small" bordered data-testid="destination">
      <Descriptions.Item label={t('withdrawals.destinationKind')}>
        {t(`withdrawals.kind.${destination.kind}`)}
      </Descriptions.Item>
      {rows.map(([label, value]) => (
        <Descriptions.Item key={label} label={label}>
          {value ? (
            <Typography.Text copyable code style={{ wordBreak: 'break-all' }}>
              {value}
            </Typography.Text>
          ) : (
            '–'
          )}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

export default function WithdrawalReview({
  record,
  onClose,
}: {
  record: ReviewedWithdraw;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const operator = useOperator();
  const details: KindDetails = {
    headline: { label: t('withdrawals.toPay'), text: amountOf(record) },
    afterAmount: [
      detail(t('withdrawals.fee'), formatAmount(record.fee, record.currencyName)),
      detail(t('withdrawals.frozen'), formatAmount(record.totalAmount, record.currencyName)),
    ],
    channel: record.channelName,
    closing: [detail(t('withdrawals.closed'), record.closeTime && formatTime(record.closeTime), 2)],
  };
  return (
    <ReviewDrawer kind="withdraw" record={record} onClose={onClose} details={details}>
      <Typography.Title level={5}>{t('withdrawals.destination')}</Typography.Title>
      <div style={{ marginBottom: 24 }}>
        <DestinationDetails destination={record.destination} />
      </div>
      <RequestHistory
        kind="withdraw"
        userId={record.userId}
        testId="user-withdrawals"
        style={{ marginBottom: 24 }}
      />
      {/* The user's deposits, when the operator may read them. */}
      {mayCall(operator, operatorsApi.recharges) && (
        <RequestHistory kind="recharge" userId={record.userId} testId="user-deposits" />
      )}
    </ReviewDrawer>
  );
}
