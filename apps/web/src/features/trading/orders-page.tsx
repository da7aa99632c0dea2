/**
 * Orders (bibiOrder): spot and coin-to-coin orders (`?kind=spot|bibi`), resting ones (to cancel,
 * which returns what they froze), filled ones with the tick that filled them, and cancelled ones,
 * page by page.
 */
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n/react';
import { SPOT_ORDER_STATUS } from '@bourse/shared';
import { ChoiceRow } from '../../components/choice-row';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { Refreshable } from '../../components/status-views';
import { usePagedRows } from '../../hooks/use-paged-rows';
import { useBook, useRefreshTrading, useTradingPush } from './hooks';
import { OrderRows } from './order-list';
import { Choices, MoreButton } from './parts';
import { LIVE_REFRESH_MS, fetchSpotOrders, ordersKey, type SpotKind } from './trading-api';

const PAGE_SIZE = 20;

const STATUSES = [
  SPOT_ORDER_STATUS.open,
  SPOT_ORDER_STATUS.filled,
  SPOT_ORDER_STATUS.cancelled,
] as readonly number[];

/** Each status's tab, and what it says when it has none. */
const STATUS_TEXT: Record<number, { label: string; empty: string }> = {
  [SPOT_ORDER_STATUS.open]: { label: 'trade_openOrders', empty: 'trade_noOpenOrders' },
  [SPOT_ORDER_STATUS.filled]: { label: 'trade_filledOrders', empty: 'trade_noFilledOrders' },
  [SPOT_ORDER_STATUS.cancelled]: {
    label: 'trade_cancelledOrders',
    empty: 'trade_noCancelledOrders',
  },
};

function Orders({ kind, status, empty }: { kind: SpotKind; status: number; empty: string }) {
  const book = useBook();
  const orders = usePagedRows({
    queryKey: [ordersKey(kind), status, book],
    fetchPage: (pageNum) => fetchSpotOrders(kind, { status, pageSize: PAGE_SIZE, pageNum }),
    pageSize: PAGE_SIZE,
    // Resting orders fill from ticks: read them again while some are shown.
    refreshMs: (rows) =>
      status === SPOT_ORDER_STATUS.open && rows.length > 0 ? LIVE_REFRESH_MS : false,
  });
  return (
    <div className="card order-list" data-testid={`orders-${kind}-${status}`}>
      <OrderRows list={orders} empty={empty} />
      <MoreButton list={orders} block />
    </div>
  );
}

export default function OrdersPage() {
  useTradingPush(useBook() !== undefined);
  const refresh = useRefreshTrading();
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const kind: SpotKind = search.get('kind') === 'bibi' ? 'bibi' : 'spot';
  const asked = Number(search.get('status') ?? SPOT_ORDER_STATUS.open);
  const status = STATUSES.includes(asked) ? asked : SPOT_ORDER_STATUS.open;
  const choose = (next: { kind?: SpotKind; status?: number }) =>
    setSearch(
      { kind: next.kind ?? kind, status: String(next.status ?? status) },
      { replace: true },
    );
  return (
    <RequireSignIn>
      <div className="page" data-testid="orders-page">
        <PageHeader title={t('trade_ordersTitle')} />
        <ChoiceRow<SpotKind>
          tabs
          className="market-tabs"
          label={t('trade_ordersTitle')}
          options={['spot', 'bibi']}
          value={kind}
          onChange={(candidate) => choose({ kind: candidate })}
          text={(candidate) => t(candidate === 'bibi' ? 'trade_bibiTitle' : 'trade_spotTitle')}
          optionTestId="orders-kind"
        />
        <Refreshable onRefresh={refresh}>
          <div className="positions-body stack" style={{ gap: 10 }}>
            <Choices<number>
              label={t('trade_orderStatus')}
              options={STATUSES}
              text={(value) => t(STATUS_TEXT[value]!.label)}
              value={status}
              onChange={(value) => choose({ status: value })}
              testId="orders-status"
            />
            {/* Each tab names what it has none of: an empty "open" tab is no sign of no orders. */}
            <Orders
              key={`${kind}:${status}`}
              kind={kind}
              status={status}
              empty={STATUS_TEXT[status]!.empty}
            />
          </div>
        </Refreshable>
      </div>
    </RequireSignIn>
  );
}
