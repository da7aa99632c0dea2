/**
 * The drawer a request is reviewed in (components/deposit-review.tsx, withdrawal-review.tsx): its
 * decision and the rejection in the header, to an operator the calls' roles admit while it is
 * under review; the details every request has around the kind's own (`details`); then the kind's
 * sections. Either decision answers `hint_48` when the request had already been decided that
 * way, and refreshes the kind's lists. Loaded with a drawer, so no queue's first screen carries it.
 */
import { useState, type CSSProperties, type ReactNode } from 'react';
import { App, Button, Descriptions, Drawer, Popconfirm, Space, Table, Typography } from 'antd';
import type { DescriptionsProps } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NOTHING_TO_DO_MSG } from '@bourse/shared';
import { api } from '../api';
import { useOperator } from '../app/operator';
import { errorText } from '../i18n';
import { mayCall } from '../lib/access';
import { formatAmount, formatTime } from '../lib/format';
import {
  CALLS,
  LIST_KEY,
  listRequests,
  PAGE,
  STATUSES,
  type MoneyKind,
  type MoneyRequest,
  type RequestKind,
  type ReviewedRequest,
} from '../lib/requests';
import { useShortcuts } from '../hooks/use-shortcuts';
import { RejectDialog } from './reject-dialog';
import { StatusTag } from './status-tag';
import { UserCell } from './cells';

const HISTORY_SIZE = 5;

type Detail = NonNullable<DescriptionsProps['items']>[number];

/**
 * A row of a request's details, none when there is no `value` (null, undefined or false): the
 * optional rows are listed as they are.
 */
export function detail(label: string, value: ReactNode, span?: number): Detail | false {
  if (value === null || value === undefined || value === false) return false;
  return { key: label, label, span, children: value };
}

/** A text as the user or the operator wrote it, line breaks kept. */
export const multiLine = (text: string | null) =>
  text ? <span style={{ whiteSpace: 'pre-wrap' }}>{text}</span> : null;

/** The user's latest requests of a kind. */
export function RequestHistory({
  kind,
  userId,
  testId,
  style,
}: {
  kind: MoneyKind;
  userId: number;
  testId: string;
  style?: CSSProperties;
}) {
  const { t } = useTranslation();
  const page = { userId, pageNum: 1, pageSize: HISTORY_SIZE };
  const history = useQuery({
    queryKey: [LIST_KEY[kind], page],
    queryFn: () => listRequests(kind, page),
  });
  return (
    <>
      <Typography.Title level={5}>{t(`review.userRequests.${kind}` as const)}</Typography.Title>
      <Table<MoneyRequest>
        size="small"
        rowKey="id"
        loading={history.isPending}
        dataSource={history.data?.rows}
        pagination={false}
        style={style}
        data-testid={testId}
        columns={[
          { title: t('review.submitted'), dataIndex: 'createTime', render: formatTime },
          {
            title: t('review.amount'),
            align: 'right',
            render: (_, row) => formatAmount(row.amount, row.currencyName),
          },
          {
            title: t('review.status'),
            render: (_, row) => <StatusTag kind={kind} status={row.status} />,
          },
        ]}
        footer={() => t('review.historyTotal', { count: history.data?.total ?? 0 })}
      />
    </>
  );
}

/** The drawer's width by kind (a withdrawal's destination, a document's images take more room). */
const WIDTH = { recharge: 640, withdraw: 680, identity: 960 } as const;

/**
 * The test id of the decision's button by kind (`<id>`, and `<id>-confirm` of its confirmation):
 * approving a deposit or a verification, marking a withdrawal paid.
 */
const DECISION_ID = { recharge: 'approve', withdraw: 'pay', identity: 'approve' } as const;

/** The amount of a request that moves money, as the drawer shows it. */
export const amountOf = (record: MoneyRequest) => formatAmount(record.amount, record.currencyName);

/** The details of a request of the kind, beside those every request has. */
export interface KindDetails {
  /** What the request is about, first and large: an amount, a verification. */
  headline: { label: string; text: string };
  /** The kind's rows after the headline. */
  afterAmount?: (Detail | false)[];
  channel?: ReactNode;
  /** The kind's rows after the time of the request. */
  closing: (Detail | false)[];
}

export function ReviewDrawer({
  kind,
  record,
  onClose,
  details,
  children,
}: {
  kind: RequestKind;
  record: ReviewedRequest;
  onClose(): void;
  details: KindDetails;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const operator = useOperator();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const page = PAGE[kind];
  const calls = CALLS[kind];
  const open = record.status === STATUSES[kind].reviewing;
  const amount = details.headline.text;
  const decision = DECISION_ID[kind];
  const label = t(`${page}.decision.label` as const);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [LIST_KEY[kind]] });

  async function decided(msg: string, done: string) {
    if (msg === NOTHING_TO_DO_MSG) void message.info(t('review.alreadyDone'));
    else void message.success(done);
    await refresh();
    onClose();
  }

  async function decide() {
    setBusy(true);
    try {
      const { msg } = await api.send(calls.decide, { id: record.id });
      await decided(msg, t(`${page}.decision.done` as const, { amount, order: record.orderNo }));
    } catch (error) {
      void message.error(errorText(error));
      await refresh();
    } finally {
      setBusy(false);
    }
  }

  async function reject(reason: string) {
    const { msg } = await api.send(calls.reject, { id: record.id, reason });
    await decided(msg, t(`${page}.rejectedToast` as const, { order: record.orderNo }));
  }

  const mayDecide = open && mayCall(operator, calls.decide);
  // a: the decision's confirmation (Enter confirms it), x: the rejection's dialog.
  useShortcuts(
    { a: () => setConfirming(true), x: () => setRejecting(true) },
    mayDecide && !rejecting && !confirming && !busy,
  );

  const actions = mayDecide && (
    <Space>
      <Button danger onClick={() => setRejecting(true)} data-testid="reject">
        {t('review.reject')}
      </Button>
      <Popconfirm
        title={t(`${page}.decision.title` as const)}
        description={t(`${page}.decision.text` as const, { amount, account: record.userAccount })}
        okText={label}
        cancelText={t('common.cancel')}
        open={confirming}
        onOpenChange={setConfirming}
        onConfirm={() => decide()}
        okButtonProps={{ 'data-testid': `${decision}-confirm`, autoFocus: true }}
        styles={{ root: { maxWidth: 440 } }}
      >
        <Button type="primary" loading={busy} data-testid={decision}>
          {label}
        </Button>
      </Popconfirm>
    </Space>
  );

  const rows = [
    detail(
      details.headline.label,
      <Typography.Text strong style={{ fontSize: 18 }} data-testid="review-amount">
        {amount}
      </Typography.Text>,
      2,
    ),
    ...(details.afterAmount ?? []),
    detail(t('review.user'), <UserCell account={record.userAccount} id={record.userId} />, 2),
    details.channel !== undefined && detail(t('review.channel'), details.channel, 2),
    detail(t('review.orderNo'), <Typography.Text copyable>{record.orderNo}</Typography.Text>, 2),
    detail(t('review.status'), <StatusTag kind={kind} status={record.status} />),
    detail(t('review.submitted'), formatTime(record.createTime)),
    ...details.closing,
    detail(t('review.reason'), multiLine(record.rejectReason), 2),
  ];

  return (
    <>
      <Drawer
        open
        width={WIDTH[kind]}
        title={t(`${page}.reviewTitle` as const, { order: record.orderNo })}
        onClose={onClose}
        extra={actions}
        data-testid="review-drawer"
      >
        <Descriptions
          column={2}
          size="small"
          bordered
          style={{ marginBottom: 24 }}
          items={rows.filter((row) => row !== false)}
        />
        {children}
      </Drawer>
      <RejectDialog
        open={rejecting}
        title={t(`${page}.rejectTitle` as const, { order: record.orderNo })}
        reasons={t(`${page}.reasons` as const, { returnObjects: true })}
        onReject={reject}
        onClose={() => setRejecting(false)}
      />
    </>
  );
}
