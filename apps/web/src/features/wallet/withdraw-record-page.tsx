/**
 * Withdrawal records (withdrawRecord): the user's withdrawals, newest first, filtered by status
 * and loaded page by page while scrolling. Each shows the amount, the fee, where it goes (masked
 * as the server sends it), its status with the reason of a rejection, and when. One under review
 * can be cancelled: its amount and fee return to the available balance at once.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import { formatDateTime, walletApi, WITHDRAW_STATUS, type WithdrawRecord } from '@bourse/shared';
import { api, showToast, unhandledMessage } from '../../api';
import { RecordList, RecordTabs, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { useUser } from '../../hooks/use-user';
import { translate } from '../../i18n';
import { Dialog } from '../../lib/antd-render';
import { navigateTo } from '../../lib/navigation';
import { currencyScale } from '../../lib/trade';
import {
  destinationText,
  invalidateWithdrawCaches,
  money,
  STATUS_COLOR,
  STATUS_LABEL,
} from './withdraw-shared';

const TABS = [
  ['all', 'withdraw_status_all'],
  ...[
    WITHDRAW_STATUS.reviewing,
    WITHDRAW_STATUS.paid,
    WITHDRAW_STATUS.rejected,
    WITHDRAW_STATUS.cancelled,
  ].map((status) => [status, STATUS_LABEL[status]!] as const),
] as const;

function Line({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="row" style={{ alignItems: 'flex-start', fontSize: 13 }}>
      <span className="muted" style={{ flex: 'none', minWidth: 72 }}>
        {label}
      </span>
      <span style={{ flex: 1, minWidth: 0, textAlign: 'end', overflowWrap: 'anywhere' }}>
        {children}
      </span>
    </div>
  );
}

function WithdrawRow({
  record,
  cancelling,
  onCancel,
}: {
  record: WithdrawRecord;
  cancelling: boolean;
  onCancel: (record: WithdrawRecord) => void;
}) {
  const { t } = useTranslation();
  const scale = currencyScale(record.currencyId);
  const pending = record.status === WITHDRAW_STATUS.reviewing;
  return (
    <article
      className="card stack"
      style={{ gap: 8 }}
      data-testid="withdraw-row"
      data-status={record.status}
    >
      <div className="row" style={{ alignItems: 'baseline' }}>
        <strong style={{ fontSize: 18, fontVariantNumeric: 'tabular-nums' }}>
          {money(record.amount, scale)} {record.currencyName}
        </strong>
        <span className="spacer" />
        <span
          data-testid="withdraw-status"
          style={{
            flex: 'none',
            fontSize: 12,
            fontWeight: 600,
            padding: '2px 8px',
            borderRadius: 999,
            border: `1px solid ${STATUS_COLOR[record.status] ?? 'var(--border)'}`,
            color: STATUS_COLOR[record.status] ?? 'var(--text-muted)',
          }}
        >
          {t(STATUS_LABEL[record.status] ?? 'withdraw_status_all')}
        </span>
      </div>
      <Line label={t('withdraw_fee')}>
        {money(record.fee, scale)} {record.currencyName}
      </Line>
      <Line label={t('withdraw_total')}>
        {money(record.totalAmount, scale)} {record.currencyName}
      </Line>
      <Line label={t('withdraw_to')}>
        <span data-testid="withdraw-destination">{destinationText(record.destination)}</span>
      </Line>
      <Line label={t('withdraw_channel')}>{record.channelName}</Line>
      <Line label={t('withdraw_time')}>{formatDateTime(record.createTime)}</Line>
      {record.closeTime && (
        <Line label={t('withdraw_closeTime')}>{formatDateTime(record.closeTime)}</Line>
      )}
      <Line label={t('withdraw_orderNo')}>
        <span className="muted">{record.orderNo}</span>
      </Line>
      {record.status === WITHDRAW_STATUS.rejected && (
        <div
          role="note"
          data-testid="withdraw-reject-reason"
          style={{
            fontSize: 13,
            padding: '8px 10px',
            borderRadius: 8,
            background: 'rgb(255 77 79 / 12%)',
            color: 'var(--text)',
          }}
        >
          {translate('withdraw_rejectReason', [record.rejectReason || '- -'])}
        </div>
      )}
      {pending && (
        <Button
          size="small"
          fill="outline"
          color="danger"
          loading={cancelling}
          disabled={cancelling}
          onClick={() => onCancel(record)}
          data-testid="withdraw-cancel"
          style={{ alignSelf: 'flex-end' }}
        >
          {t('withdraw_cancel')}
        </Button>
      )}
    </article>
  );
}

export default function WithdrawRecordPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useUser();
  const [cancelling, setCancelling] = useState<number | undefined>();
  const list = useRecordPages(['withdrawRecords', user?.accountType], (page, status?: number) =>
    api.call(walletApi.withdrawals, { ...page, status }),
  );
  const all = list.filter === 'all';

  async function cancel(record: WithdrawRecord) {
    const confirmed = await Dialog.confirm({
      content: translate('withdraw_cancelConfirm', [
        `${money(record.totalAmount, currencyScale(record.currencyId))} ${record.currencyName}`,
      ]),
      confirmText: t('withdraw_cancelYes'),
      cancelText: t('withdraw_keep'),
    });
    if (!confirmed) return;
    setCancelling(record.id);
    try {
      await api.call(walletApi.cancelWithdrawal, { id: record.id }, { catchError: true });
      showToast(t('withdraw_cancelled'));
    } catch (error) {
      const message = unhandledMessage(error);
      if (message) showToast(message);
    } finally {
      setCancelling(undefined);
      // Whatever happened (cancelled, or paid or rejected meanwhile), show the current state.
      await invalidateWithdrawCaches(queryClient);
    }
  }

  return (
    <SignedInScreen testId="withdraw-record-page" title={t('withdraw_recordTitle')}>
      <RecordTabs list={list} label="withdraw_status" filters={TABS} testId="withdraw-filter" />
      <div className="page-body" style={{ paddingTop: 4 }}>
        <RecordList
          list={list}
          endTestId="withdraw-end"
          empty={{
            testId: 'withdraw-empty',
            title: t(all ? 'withdraw_empty' : 'withdraw_emptyFiltered'),
            action: all
              ? { label: t('withdraw_title'), onClick: () => navigateTo('withdraw') }
              : { label: t('withdraw_status_all'), onClick: () => list.setFilter('all') },
          }}
        >
          {list.rows.map((record) => (
            <WithdrawRow
              key={record.id}
              record={record}
              cancelling={cancelling === record.id}
              onCancel={(row) => void cancel(row)}
            />
          ))}
        </RecordList>
      </div>
    </SignedInScreen>
  );
}
