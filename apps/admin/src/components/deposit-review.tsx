/**
 * A deposit under review, in a drawer: the amount, the user, the channel, the proof (zoom in
 * antd's preview) and the user's other deposits; approving credits it once, rejecting needs the
 * reason the user reads. Loaded when a request is opened, so the queue's first screen carries
 * none of it.
 */
import { useState } from 'react';
import { App, Button, Descriptions, Drawer, Popconfirm, Space, Table, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { operatorsApi, RECHARGE_STATUS, type ReviewedRecharge } from '@bourse/shared';
import { api } from '../api';
import { useOperator } from '../app/operator';
import { errorText } from '../i18n';
import { mayCall } from '../lib/access';
import { formatAmount, formatTime } from '../lib/format';
import { ChannelCell } from './channel-cell';
import { ProofImage } from './proof-image';
import { RejectDialog } from './reject-dialog';
import { StatusTag } from './status-tag';
import { UserCell } from './cells';

const HISTORY_SIZE = 5;

/** The user's latest deposits, this one included. */
function UserHistory({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const history = useQuery({
    queryKey: ['recharges', { userId, pageNum: 1, pageSize: HISTORY_SIZE }],
    queryFn: () => api.call(operatorsApi.recharges, { userId, pageNum: 1, pageSize: HISTORY_SIZE }),
  });
  return (
    <Table<ReviewedRecharge>
      size="small"
      rowKey="id"
      loading={history.isPending}
      dataSource={history.data?.rows}
      pagination={false}
      data-testid="user-history"
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
      footer={() => t('review.historyTotal', { count: history.data?.total ?? 0 })}
    />
  );
}

export default function DepositReview({
  record,
  onClose,
}: {
  record: ReviewedRecharge;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const operator = useOperator();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const open = record.status === RECHARGE_STATUS.reviewing;
  const amount = formatAmount(record.amount, record.currencyName);

  const decided = async () => {
    await queryClient.invalidateQueries({ queryKey: ['recharges'] });
    onClose();
  };

  async function approve() {
    setBusy(true);
    try {
      const { msg } = await api.send(operatorsApi.approveRecharge, { id: record.id });
      if (msg === 'hint_48') void message.info(t('review.alreadyDone'));
      else void message.success(t('deposits.approvedToast', { amount, order: record.orderNo }));
      await decided();
    } catch (error) {
      void message.error(errorText(error));
      await queryClient.invalidateQueries({ queryKey: ['recharges'] });
    } finally {
      setBusy(false);
    }
  }

  async function reject(reason: string) {
    const { msg } = await api.send(operatorsApi.rejectRecharge, { id: record.id, reason });
    if (msg === 'hint_48') void message.info(t('review.alreadyDone'));
    else void message.success(t('deposits.rejectedToast', { order: record.orderNo }));
    await decided();
  }

  const actions = open && mayCall(operator, operatorsApi.approveRecharge) && (
    <Space>
      <Button danger onClick={() => setRejecting(true)} data-testid="reject">
        {t('review.reject')}
      </Button>
      <Popconfirm
        title={t('deposits.approveTitle')}
        description={t('deposits.approveText', { amount, account: record.userAccount })}
        okText={t('deposits.approve')}
        cancelText={t('common.cancel')}
        onConfirm={() => approve()}
        okButtonProps={{ 'data-testid': 'approve-confirm' }}
        styles={{ root: { maxWidth: 440 } }}
      >
        <Button type="primary" loading={busy} data-testid="approve">
          {t('deposits.approve')}
        </Button>
      </Popconfirm>
    </Space>
  );

  return (
    <>
      <Drawer
        open
        width={640}
        title={t('deposits.reviewTitle', { order: record.orderNo })}
        onClose={onClose}
        extra={actions}
        data-testid="review-drawer"
      >
        <Descriptions column={2} size="small" bordered style={{ marginBottom: 24 }}>
          <Descriptions.Item label={t('review.amount')} span={2}>
            <Typography.Text strong style={{ fontSize: 18 }} data-testid="review-amount">
              {amount}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('review.user')} span={2}>
            <UserCell account={record.userAccount} id={record.userId} />
          </Descriptions.Item>
          <Descriptions.Item label={t('review.channel')} span={2}>
            <ChannelCell record={record} />
          </Descriptions.Item>
          <Descriptions.Item label={t('review.orderNo')} span={2}>
            <Typography.Text copyable>{record.orderNo}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('review.status')}>
            <StatusTag kind="recharge" status={record.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('review.submitted')}>
            {formatTime(record.createTime)}
          </Descriptions.Item>
          {record.remark && (
            <Descriptions.Item label={t('deposits.remark')} span={2}>
              <span style={{ whiteSpace: 'pre-wrap' }}>{record.remark}</span>
            </Descriptions.Item>
          )}
          {record.reviewTime && (
            <Descriptions.Item label={t('review.reviewed')} span={2}>
              {formatTime(record.reviewTime)}
            </Descriptions.Item>
          )}
          {record.rejectReason && (
            <Descriptions.Item label={t('review.reason')} span={2}>
              <span style={{ whiteSpace: 'pre-wrap' }}>{record.rejectReason}</span>
            </Descriptions.Item>
          )}
        </Descriptions>
        <Typography.Title level={5}>{t('deposits.proof')}</Typography.Title>
        <div style={{ marginBottom: 24 }}>
          {record.hasProof ? (
            <ProofImage id={record.id} />
          ) : (
            <Typography.Text type="secondary">{t('deposits.noProof')}</Typography.Text>
          )}
        </div>
        <Typography.Title level={5}>{t('deposits.userHistory')}</Typography.Title>
        <UserHistory userId={record.userId} />
      </Drawer>
      <RejectDialog
        open={rejecting}
        title={t('deposits.rejectTitle', { order: record.orderNo })}
        reasons={t('deposits.reasons', { returnObjects: true })}
        onReject={reject}
        onClose={() => setRejecting(false)}
      />
    </>
  );
}
