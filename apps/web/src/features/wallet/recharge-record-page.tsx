/**
 * Deposit records (rechargeRecord): the user's deposits, newest first, filtered by status, loaded
 * page by page as the list scrolls. Each row opens its detail.
 */
import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Button, InfiniteScroll } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatDateTime, RECHARGE_STATUS } from '@bourse/shared';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { navigateTo } from '../../lib/navigation';
import { fetchRechargePage, RECHARGE_PAGE_SIZE } from './recharge-api';
import { displayScale, money, RechargeStatusTag } from './recharge-parts';

const FILTERS: { status: number | undefined; label: string }[] = [
  { status: undefined, label: 'recharge_statusAll' },
  { status: RECHARGE_STATUS.reviewing, label: 'recharge_status0' },
  { status: RECHARGE_STATUS.approved, label: 'recharge_status1' },
  { status: RECHARGE_STATUS.rejected, label: 'recharge_status2' },
];

export default function RechargeRecordPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<number | undefined>(undefined);
  const query = useInfiniteQuery({
    queryKey: ['rechargeRecords', status ?? 'all'],
    queryFn: ({ pageParam }) => fetchRechargePage(pageParam, status),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      last.rows.length === RECHARGE_PAGE_SIZE && pages.length * RECHARGE_PAGE_SIZE < last.total
        ? pages.length + 1
        : undefined,
  });
  const rows = query.data?.pages.flatMap((page) => page.rows) ?? [];
  return (
    <RequireSignIn>
      <div className="page" data-testid="recharge-record-page">
        <PageHeader title={t('recharge_records')} />
        <div className="market-tabs rc-tabs" role="tablist" aria-label={t('recharge_filter')}>
          {FILTERS.map((filter) => (
            <button
              key={filter.label}
              type="button"
              role="tab"
              aria-selected={filter.status === status}
              data-testid={`recharge-filter-${filter.status ?? 'all'}`}
              onClick={() => setStatus(filter.status)}
            >
              {t(filter.label)}
            </button>
          ))}
        </div>
        <div role="tabpanel" data-testid="recharge-records">
          {query.isSuccess && rows.length === 0 && (
            <div className="rc-empty stack" style={{ alignItems: 'center' }}>
              <p className="muted" style={{ margin: 0 }}>
                {t('recharge_noRecords')}
              </p>
              <Button color="primary" fill="outline" onClick={() => navigateTo('recharge')}>
                {t('recharge_newDeposit')}
              </Button>
            </div>
          )}
          {rows.map((row) => (
            <button
              key={row.id}
              type="button"
              className="rc-record"
              data-testid={`recharge-row-${row.id}`}
              onClick={() => navigateTo('rechargeDetail', { id: row.id })}
            >
              <strong>
                {money(row.amount, displayScale(row.amount))} {row.currencyName}
              </strong>
              <RechargeStatusTag status={row.status} />
              <span className="muted ellipsis">{row.channelName}</span>
              <span className="muted">{formatDateTime(row.createTime)}</span>
            </button>
          ))}
          {query.isPending && <p className="rc-more">{t('common_loading')}</p>}
          {query.isError && !query.data && (
            <div className="rc-empty">
              <Button onClick={() => void query.refetch()}>{t('common_retry')}</Button>
            </div>
          )}
          {query.isSuccess && (
            <InfiniteScroll
              hasMore={query.hasNextPage}
              loadMore={async () => {
                const result = await query.fetchNextPage();
                if (result.isError) throw result.error;
              }}
            >
              {(hasMore, failed, retry) =>
                failed ? (
                  <button type="button" className="link rc-more" onClick={retry}>
                    {t('common_retry')}
                  </button>
                ) : hasMore ? (
                  <span className="rc-more">{t('common_loading')}</span>
                ) : rows.length > 0 ? (
                  <span className="rc-more">{t('recharge_noMore')}</span>
                ) : null
              }
            </InfiniteScroll>
          )}
        </div>
      </div>
    </RequireSignIn>
  );
}
