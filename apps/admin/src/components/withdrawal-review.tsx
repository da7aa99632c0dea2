/**
 * A withdrawal under review, in a drawer: the destination in full (the operator pays it: bank,
 * holder and card number, or network and address, each to copy), the amount, the fee and what
 * was frozen, and the user's recent withdrawals and deposits. Marking it paid takes the frozen
 * amount and fee out of the account; rejecting releases them at once, with the reason the user
 * reads. Loaded when a request is opened, so the queue's first screen carries none of it.
 */
import { useState } from 'react';
import { App, Button, Descriptions, Drawer, Popconfirm, Space, Table, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  operatorsApi,
  WITHDRAW_STATUS,
  type ReviewedRecharge,
  type ReviewedWithdraw,
  type WithdrawDestination,
} from '@bourse/shared';
import { api } from '../api';
import { useOperator } from '../app/operator';
import { errorText } from '../i18n';
import { mayCall } from '../lib/access';
import { formatAmount, formatTime } from '../lib/format';
import { RejectDialog } from './reject-dialog';
import { StatusTag } from './status-tag';
import { UserCell } from './cells';

const HISTORY_SIZE = 5;

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

/** The user's latest withdrawals and, when the operator may read them, deposits. */
function UserActivity({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const operator = useOperator();
  const page = { userId, pageNum: 1, pageSize: HISTORY_SIZE };
  const withdrawals = useQuery({
    queryKey: ['withdrawals', page],
    queryFn: () => api.call(operatorsApi.withdrawals, page),
  });
  const showDeposits = mayCall(operator, operatorsApi.recharges);
  const deposits = useQuery({
    queryKey: ['recharges', page],
    queryFn: () => api.call(operatorsApi.recharges, page),
    enabled: showDeposits,
  });
  return (
    <>
      <Typography.Title level={5}>{t('withdrawals.userWithdrawals')}</Typography.Title>
      <Table<ReviewedWithdraw>
        size="small"
        rowKey="id"
        loading={withdrawals.isPending}
        dataSource={withdrawals.data?.rows}
        pagination={false}
        style={{ marginBottom: 24 }}
        data-testid="user-withdrawals"
        columns={[
          { title: t('review.submitted'), dataIndex: 'createTime', render: formatTime },
          {
            title: t('review.amount'),
            align: 'right',
            render: (_, row) => formatAmount(row.amount, row.currencyName),
          },
          {
            title: t('review.status'),
            render: (_, row) => <StatusTag kind="withdraw" status={row.status} />,
          },
        ]}
        footer={() => t('review.historyTotal', { count: withdrawals.data?.total ?? 0 })}
      />
      {showDeposits && (
        <>
          <Typography.Title level={5}>{t('withdrawals.userDeposits')}</Typography.Title>
          <Table<ReviewedRecharge>
            size="small"
            rowKey="id"
            loading={deposits.isPending}
            dataSource={deposits.data?.rows}
            pagination={false}
            data-testid="user-deposits"
            columns={[
              { title: t('review.submitted'), dataIndex: 'createTime', render: formatTime },
              {
                title: t('review.amount'),
                align: 'right',
                render: (_, row) => formatAmount(row.amount, row.currencyName),
              },
              {
                title: t('review.status'),
                render: (_, row) => <StatusTag kind="recharge" status={row.status} />,
              },
            ]}
            footer={() => t('review.historyTotal', { count: deposits.data?.total ?? 0 })}
          />
        </>
      )}
    </>
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
  const { message } = App.useApp();
  const operator = useOperator();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const open = record.status === WITHDRAW_STATUS.reviewing;
  const amount = formatAmount(record.amount, record.currencyName);

  const decided = async () => {
    await queryClient.invalidateQueries({ queryKey: ['withdrawals'] });
    onClose();
  };

  async function pay() {
    setBusy(true);
    try {
      const { msg } = await api.send(operatorsApi.payWithdrawal, { id: record.id });
      if (msg === 'hint_48') void message.info(t('review.alreadyDone'));
      else void message.success(t('withdrawals.paidToast', { amount, order: record.orderNo }));
      await decided();
    } catch (error) {
      void message.error(errorText(error));
      await queryClient.invalidateQueries({ queryKey: ['withdrawals'] });
    } finally {
      setBusy(false);
    }
  }

  async function reject(reason: string) {
    const { msg } = await api.send(operatorsApi.rejectWithdrawal, { id: record.id, reason });
    if (msg === 'hint_48') void message.info(t('review.alreadyDone'));
    else void message.success(t('withdrawals.rejectedToast', { order: record.orderNo }));
    await decided();
  }

  const actions = open && mayCall(operator, operatorsApi.payWithdrawal) && (
    <Space>
      <Button danger onClick={() => setRejecting(true)} data-testid="reject">
        {t('review.reject')}
      </Button>
      <Popconfirm
        title={t('withdrawals.payTitle')}
        description={t('withdrawals.payText', { amount })}
        okText={t('withdrawals.pay')}
        cancelText={t('common.cancel')}
        onConfirm={() => pay()}
        okButtonProps={{ 'data-testid': 'pay-confirm' }}
        styles={{ root: { maxWidth: 440 } }}
      >
        <Button type="primary" loading={busy} data-testid="pay">
          {t('withdrawals.pay')}
        </Button>
      </Popconfirm>
    </Space>
  );

  return (
    <>
      <Drawer
        open
        width={680}
        title={t('withdrawals.reviewTitle', { order: record.orderNo })}
        onClose={onClose}
        extra={actions}
        data-testid="review-drawer"
      >
        <Descriptions column={2} size="small" bordered style={{ marginBottom: 24 }}>
          <Descriptions.Item label={t('withdrawals.toPay')} span={2}>
            <Typography.Text strong style={{ fontSize: 18 }} data-testid="review-amount">
              {amount}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('withdrawals.fee')}>
            {formatAmount(record.fee, record.currencyName)}
          </Descriptions.Item>
          <Descriptions.Item label={t('withdrawals.frozen')}>
            {formatAmount(record.totalAmount, record.currencyName)}
          </Descriptions.Item>
          <Descriptions.Item label={t('review.user')} span={2}>
            <UserCell account={record.userAccount} id={record.userId} />
          </Descriptions.Item>
          <Descriptions.Item label={t('review.channel')} span={2}>
            {record.channelName}
          </Descriptions.Item>
          <Descriptions.Item label={t('review.orderNo')} span={2}>
            <Typography.Text copyable>{record.orderNo}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('review.status')}>
            <StatusTag kind="withdraw" status={record.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('review.submitted')}>
            {formatTime(record.createTime)}
          </Descriptions.Item>
          {record.closeTime && (
            <Descriptions.Item label={t('withdrawals.closed')} span={2}>
              {formatTime(record.closeTime)}
            </Descriptions.Item>
          )}
          {record.rejectReason && (
            <Descriptions.Item label={t('review.reason')} span={2}>
              <span style={{ whiteSpace: 'pre-wrap' }}>{record.rejectReason}</span>
            </Descriptions.Item>
          )}
        </Descriptions>
        <Typography.Title level={5}>{t('withdrawals.destination')}</Typography.Title>
        <div style={{ marginBottom: 24 }}>
          <DestinationDetails destination={record.destination} />
        </div>
        <UserActivity userId={record.userId} />
      </Drawer>
      <RejectDialog
        open={rejecting}
        title={t('withdrawals.rejectTitle', { order: record.orderNo })}
        reasons={t('withdrawals.reasons', { returnObjects: true })}
        onReject={reject}
        onClose={() => setRejecting(false)}
      />
    </>
  );
}
