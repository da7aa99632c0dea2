/**
 * Orders (bibiOrder): spot and coin-to-coin orders (`?kind=spot|bibi`), resting ones (to cancel,
 * which returns what they froze), filled ones with the tick that filled them, and cancelled ones,
 * page by page.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SPOT_ORDER_STATUS } from '@bourse/shared';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { useBook, useTradingPush } from './hooks';
import { OrderRows } from './order-list';
import { Choices } from './parts';
import { LIVE_REFRESH_MS, TRADING_KEY, fetchSpotOrders, type SpotKind } from './trading-api';

const PAGE_SIZE = 20;

const STATUSES = [
  { value: SPOT_ORDER_STATUS.open, label: 'trade_openOrders', empty: 'trade_noOpenOrders' },
  { value: SPOT_ORDER_STATUS.filled, label: 'trade_filledOrders', empty: 'trade_noFilledOrders' },
  {
    value: SPOT_ORDER_STATUS.cancelled,
    label: 'trade_cancelledOrders',
    empty: 'trade_noCancelledOrders',
  },
] as const;

function Orders({ kind, status, empty }: { kind: SpotKind; status: number; empty: string }) {
  const { t } = useTranslation();
  const book = useBook();
  const orders = useInfiniteQuery({
    queryKey: [kind === 'bibi' ? TRADING_KEY.bibiOrders : TRADING_KEY.spotOrders, status, book],
    queryFn: ({ pageParam }) =>
      fetchSpotOrders(kind, { status, pageSize: PAGE_SIZE, pageNum: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined,
    // Resting orders fill from ticks: read them again while some are shown.
    refetchInterval: (query) =>
      status === SPOT_ORDER_STATUS.open && (query.state.data?.pages[0]?.rows.length ?? 0) > 0
        ? LIVE_REFRESH_MS
        : false,
  });
  const rows = orders.data?.pages.flatMap((page) => page.rows) ?? [];
  return (
    <div className="card order-list" data-testid={`orders-${kind}-${status}`}>
      <OrderRows orders={rows} loaded={orders.isSuccess} empty={empty} />
      {orders.hasNextPage && (
        <Button
          block
          fill="none"
          loading={orders.isFetchingNextPage}
          onClick={() => void orders.fetchNextPage()}
        >
          {t('position_more')}
        </Button>
      )}
    </div>
  );
}

export default function OrdersPage() {
  useTradingPush(useBook() !== undefined);
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const kind: SpotKind = search.get('kind') === 'bibi' ? 'bibi' : 'spot';
  const asked = Number(search.get('status') ?? SPOT_ORDER_STATUS.open);
  const shown = STATUSES.find((entry) => entry.value === asked) ?? STATUSES[0];
  const status: number = shown.value;
  const choose = (next: { kind?: SpotKind; status?: number }) =>
    setSearch(
      { kind: next.kind ?? kind, status: String(next.status ?? status) },
      { replace: true },
    );
  return (
    <RequireSignIn>
      <div className="page" data-testid="orders-page">
        <PageHeader title={t('trade_ordersTitle')} />
        <div className="market-tabs" role="tablist" aria-label={t('trade_ordersTitle')}>
          {(['spot', 'bibi'] as const).map((candidate) => (
            <button
              key={candidate}
              type="button"
              role="tab"
              aria-selected={candidate === kind}
              data-testid={`orders-kind-${candidate}`}
              onClick={() => choose({ kind: candidate })}
            >
              {t(candidate === 'bibi' ? 'trade_bibiTitle' : 'trade_spotTitle')}
            </button>
          ))}
        </div>
        <div className="positions-body stack" style={{ gap: 10 }}>
          <Choices
            label={t('trade_orderStatus')}
            options={STATUSES.map((entry) => ({ value: entry.value, label: t(entry.label) }))}
            value={status}
            onChange={(value) => choose({ status: value })}
            testId="orders-status"
          />
          {/* Each tab names what it has none of: an empty "open" tab is no sign of no orders. */}
          <Orders key={`${kind}:${status}`} kind={kind} status={status} empty={shown.empty} />
        </div>
      </div>
    </RequireSignIn>
  );
}
