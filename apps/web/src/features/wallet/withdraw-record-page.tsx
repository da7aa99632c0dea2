/**
 * Withdrawal records (withdrawRecord): the user's withdrawals, newest first, filtered by status
 * and loaded page by page while scrolling. Each shows the amount, the fee, where it goes (masked
 * as the server sends it), its status with the reason of a rejection, and when. One under review
 * can be cancelled: its amount and fee return to the available balance at once.
 */
import { useState } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Button, InfiniteScroll } from 'antd-mobile';
import { FileOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { formatDateTime, walletApi, WITHDRAW_STATUS, type WithdrawRecord } from '@bourse/shared';
import { api, showToast, unhandledMessage } from '../../api';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { useUser } from '../../hooks/use-user';
import { translate } from '../../i18n';
import { Dialog } from '../../lib/antd-render';
import { navigateTo } from '../../lib/navigation';
import {
  currencyScale,
  destinationText,
  invalidateWithdrawCaches,
  money,
  STATUS_COLOR,
  STATUS_LABEL,
} from './withdraw-shared';

const PAGE_SIZE = 20;

type StatusFilter = 'all' | `${number}`;

const FILTERS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'withdraw_status_all' },
  { value: `${WITHDRAW_STATUS.reviewing}`, label: 'withdraw_status_reviewing' },
  { value: `${WITHDRAW_STATUS.paid}`, label: 'withdraw_status_paid' },
  { value: `${WITHDRAW_STATUS.rejected}`, label: 'withdraw_status_rejected' },
  { value: `${WITHDRAW_STATUS.cancelled}`, label: 'withdraw_status_cancelled' },
];

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
  const [status, setStatus] = useState<StatusFilter>('all');
  const [cancelling, setCancelling] = useState<number | undefined>();
  const records = useInfiniteQuery({
    queryKey: ['withdrawRecords', user?.accountType, status],
    queryFn: ({ pageParam }) =>
      api.call(walletApi.withdrawals, {
        pageNum: pageParam,
        pageSize: PAGE_SIZE,
        status: status === 'all' ? undefined : status,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      last.rows.length > 0 &&
      pages.reduce((count, page) => count + page.rows.length, 0) < last.total
        ? pages.length + 1
        : undefined,
  });
  // A withdrawal made while paging shifts later pages: each shows once.
  const seen = new Set<number>();
  const rows = (records.data?.pages ?? [])
    .flatMap((page) => page.rows)
    .filter((row) => (seen.has(row.id) ? false : (seen.add(row.id), true)));

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
    <RequireSignIn>
      <div className="page" data-testid="withdraw-record-page">
        <PageHeader title={t('withdraw_recordTitle')} />
        <div className="market-tabs" role="tablist" aria-label={t('withdraw_status')}>
          {FILTERS.map((filter) => (
            <button
              key={filter.value}
              type="button"
              role="tab"
              aria-selected={status === filter.value}
              data-testid={`withdraw-filter-${filter.value}`}
              onClick={() => setStatus(filter.value)}
            >
              {t(filter.label)}
            </button>
          ))}
        </div>
        <div className="page-body" style={{ paddingTop: 4 }}>
          {records.isSuccess && rows.length === 0 ? (
            <div
              className="stack"
              data-testid="withdraw-empty"
              style={{ alignItems: 'center', textAlign: 'center', padding: '48px 24px', gap: 10 }}
            >
              <FileOutline fontSize={48} color="var(--text-muted)" aria-hidden="true" />
              <strong style={{ fontSize: 16 }}>
                {t(status === 'all' ? 'withdraw_empty' : 'withdraw_emptyFiltered')}
              </strong>
              {status === 'all' ? (
                <Button size="small" color="primary" onClick={() => navigateTo('withdraw')}>
                  {t('withdraw_title')}
                </Button>
              ) : (
                <Button size="small" fill="outline" onClick={() => setStatus('all')}>
                  {t('withdraw_status_all')}
                </Button>
              )}
            </div>
          ) : (
            <>
              {rows.map((record) => (
                <WithdrawRow
                  key={record.id}
                  record={record}
                  cancelling={cancelling === record.id}
                  onCancel={(row) => void cancel(row)}
                />
              ))}
              <InfiniteScroll
                hasMore={records.hasNextPage}
                loadMore={async () => {
                  const result = await records.fetchNextPage();
                  if (result.isError) throw result.error;
                }}
              >
                {(hasMore, failed, retry) => (
                  <div
                    className="muted"
                    style={{ padding: 8, textAlign: 'center', fontSize: 13 }}
                    data-testid="withdraw-end"
                  >
                    {failed || (records.isError && rows.length === 0) ? (
                      <button
                        type="button"
                        className="link"
                        onClick={() => (failed ? retry() : void records.refetch())}
                      >
                        {t('common_retry')}
                      </button>
                    ) : hasMore || records.isFetching ? (
                      t('common_loading')
                    ) : (
                      t('record_noMore')
                    )}
                  </div>
                )}
              </InfiniteScroll>
            </>
          )}
        </div>
      </div>
    </RequireSignIn>
  );
}
