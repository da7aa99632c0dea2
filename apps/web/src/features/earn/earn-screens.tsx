/**
 * The screens lock mining and staking share, by kind: a list of products, a product's detail, the
 * orders (with early redemption) and the lock-mining analysis. Each route's page file picks its
 * kind and title.
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from 'antd-mobile';
import { EARN_ORDER_STATUS, formatMessage, type EarnKind, type EarnOrder } from '@bourse/shared';
import { DemoBadge, useDemoAccount } from '../../components/demo-account';
import { PageHeader } from '../../components/page-header';
import { RecordList, RecordTabs, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import {
  EmptyState,
  ErrorState,
  ListSkeleton,
  Num,
  Refreshable,
} from '../../components/status-views';
import { useUser } from '../../hooks/use-user';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import {
  earnKeys,
  fetchOrderPage,
  useFinancialAnalysis,
  useProduct,
  useProducts,
  type EarnProduct,
} from './api';
import { BuyForm } from './buy-form';
import { amountText, OrderCard, ORDERS_ROUTE, ProductCard, ProductTerms } from './earn-parts';
import { RedeemSheet } from './redeem-sheet';

/** The product detail screen of each kind (route names of config/paths.ts). */
const DETAIL_ROUTE = { financial: 'lockMiningDetail', staking: 'pledgeDetail' } as const;

/** The header's link to the user's orders of a kind. */
export function OrdersLink({ kind }: { kind: EarnKind }) {
  const { t } = useTranslation();
  const { signedIn } = useUser();
  if (!signedIn) return null;
  return (
    <button
      type="button"
      className="link"
      style={{ fontSize: 14 }}
      data-testid="earn-orders-link"
      onClick={() => navigateTo(ORDERS_ROUTE[kind])}
    >
      {t('earn_myOrders')}
    </button>
  );
}

/** The open products of a kind (at most `limit`), each leading to its detail. */
export function ProductList({ kind, limit }: { kind: EarnKind; limit?: number }) {
  const { t } = useTranslation();
  const { signedIn } = useUser();
  const products = useProducts(kind, signedIn);
  const refresh = () => products.refetch();
  if (products.isPending) return <ListSkeleton rows={3} />;
  if (products.isError)
    return (
      <Refreshable onRefresh={refresh}>
        <ErrorState onRetry={() => void refresh()} />
      </Refreshable>
    );
  const shown = limit === undefined ? products.data : products.data.slice(0, limit);
  if (shown.length === 0)
    return (
      <EmptyState
        testId="earn-products-empty"
        title={t('earn_noProducts')}
        text={t('earn_noProductsText')}
      />
    );
  return (
    <ul className="card-items" data-testid="earn-products">
      {shown.map((product) => (
        <ProductCard
          key={product.id}
          product={product}
          action={t(kind === 'financial' ? 'earn_buy' : 'earn_stakeNow')}
          onOpen={() => navigateTo(DETAIL_ROUTE[kind], { id: product.id })}
        />
      ))}
    </ul>
  );
}

/** The id a screen was opened with (`?id=`), or NaN. */
export function useIdParam(name = 'id'): number {
  const [search] = useSearchParams();
  return Number(search.get(name));
}

/** A product: its name and image, then everything it states (and what `children` add). */
export function ProductDetail({
  kind,
  id,
  children,
}: {
  kind: EarnKind;
  id: number;
  children: (product: EarnProduct) => React.ReactNode;
}) {
  const { t } = useTranslation();
  const { signedIn } = useUser();
  const demo = useDemoAccount();
  const product = useProduct(kind, id, signedIn);
  if (!Number.isInteger(id) || id <= 0 || product.isError)
    return <EmptyState testId="earn-product-missing" title={t('earn_productMissing')} />;
  if (!product.data) return <ListSkeleton rows={2} />;
  const shown = product.data;
  return (
    <div className="stack">
      <section className="card stack er-detail" data-testid="earn-detail">
        <div className="er-product-head">
          <strong className="er-detail-name">{shown.name}</strong>
          {demo && <DemoBadge />}
        </div>
        {shown.status !== 1 && <p className="er-warning">{t('earn_closed')}</p>}
        <ProductTerms product={shown} demo={demo} />
      </section>
      {children(shown)}
    </div>
  );
}

/** A product's detail with the form that buys it (lock mining's detail, staking's buy). */
export function BuyScreen({
  kind,
  title,
  testId,
}: {
  kind: EarnKind;
  title: string;
  testId: string;
}) {
  const id = useIdParam();
  return (
    <div className="page" data-testid={testId}>
      <PageHeader title={title} right={<OrdersLink kind={kind} />} />
      <div className="page-body">
        <ProductDetail kind={kind} id={id}>
          {(product) => <BuyForm kind={kind} product={product} />}
        </ProductDetail>
      </div>
    </div>
  );
}

const FILTERS = [
  ['all', 'earn_tabAll'],
  [EARN_ORDER_STATUS.active, 'earn_status1'],
  [EARN_ORDER_STATUS.pending, 'earn_status0'],
  [EARN_ORDER_STATUS.completed, 'earn_status2'],
  [EARN_ORDER_STATUS.redeemed, 'earn_status4'],
  [EARN_ORDER_STATUS.rejected, 'earn_status3'],
] as const;

/** The user's orders of a kind in the session's book, by state, with early redemption. */
export function OrdersScreen({
  kind,
  title,
  testId,
}: {
  kind: EarnKind;
  title: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const demo = useDemoAccount();
  const [redeeming, setRedeeming] = useState<EarnOrder | undefined>(undefined);
  const list = useRecordPages<EarnOrder, number>(earnKeys.orders(kind), (page, status) =>
    fetchOrderPage(kind, page, status),
  );
  return (
    <SignedInScreen testId={testId} title={title}>
      {demo && (
        <div className="row er-demo" data-testid="earn-demo">
          <DemoBadge />
          <span className="muted er-small">{t('earn_demoNote')}</span>
        </div>
      )}
      <RecordTabs list={list} label="earn_orderStatus" filters={FILTERS} testId="earn-tab" />
      <div role="tabpanel">
        <RecordList
          list={list}
          className="card-list"
          testId="earn-orders"
          empty={{
            title: t('earn_noOrders'),
            testId: 'earn-orders-empty',
            action: {
              label: t('earn_browse'),
              onClick: () => navigateTo(kind === 'financial' ? 'lockMiningProducts' : 'pledgeList'),
            },
          }}
        >
          <ul className="card-items">
            {list.rows.map((order) => (
              <OrderCard
                key={order.id}
                order={order}
                onRedeem={() => setRedeeming(order)}
                onRecords={
                  kind === 'staking' && order.status !== EARN_ORDER_STATUS.pending
                    ? () => navigateTo('pledgeInterest', { stakingOrderId: order.id })
                    : undefined
                }
              />
            ))}
          </ul>
        </RecordList>
      </div>
      <RedeemSheet kind={kind} order={redeeming} onClose={() => setRedeeming(undefined)} />
    </SignedInScreen>
  );
}

/** The lock-mining figures of the signed-in user, per currency. */
export function AnalysisCard() {
  const { t } = useTranslation();
  const { signedIn } = useUser();
  const analysis = useFinancialAnalysis(signedIn);
  if (!signedIn) return null;
  const data = analysis.data;
  return (
    <section className="card er-analysis" data-testid="earn-analysis">
      <div className="row">
        <h2 className="section-title" style={{ margin: 0 }}>
          {t('earn_analysisTitle')}
        </h2>
        <span className="spacer" />
        <Num className="muted er-small" testId="earn-analysis-orders">
          {formatMessage(t('earn_activeOrders'), [data?.orderCount ?? 0])}
        </Num>
      </div>
      {data && data.pendingCount > 0 && (
        <p className="er-note">{formatMessage(t('earn_pendingCount'), [data.pendingCount])}</p>
      )}
      {!data || data.currencies.length === 0 ? (
        <p className="muted er-small">
          {analysis.isPending ? t('common_loading') : t('earn_noOrdersYet')}
        </p>
      ) : (
        data.currencies.map((row) => {
          const figures = { scale: 8, currency: row.currency };
          return (
            <div
              className="er-figures"
              key={row.currencyId}
              data-testid={`earn-analysis-${row.currency}`}
            >
              <div className="er-figure">
                <span className="muted">{t('earn_amountHeld')}</span>
                <Num testId="earn-analysis-held">{amountText(row.amountHeld, figures)}</Num>
              </div>
              <div className="er-figure">
                <span className="muted">{t('earn_interestPaid')}</span>
                <Num testId="earn-analysis-paid">{amountText(row.interestPaid, figures)}</Num>
              </div>
              <div className="er-figure">
                <span className="muted">{t('earn_expectedToday')}</span>
                <Num testId="earn-analysis-today">{amountText(row.expectedToday, figures)}</Num>
              </div>
            </div>
          );
        })
      )}
    </section>
  );
}

/** Lock mining's entry: the user's figures, a few products, and the ways on. */
export function LockMiningHome({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <div className="page" data-testid="lock-mining-page">
      <PageHeader title={title} right={<OrdersLink kind="financial" />} />
      <div className="page-body stack">
        <p className="er-intro">{t('earn_lockMiningIntro')}</p>
        <AnalysisCard />
        <div className="row">
          <h2 className="section-title" style={{ margin: 0 }}>
            {t('earn_products')}
          </h2>
          <span className="spacer" />
          <Button
            size="small"
            fill="none"
            color="primary"
            data-testid="earn-all-products"
            onClick={() => navigateTo('lockMiningProducts')}
          >
            {t('earn_allProducts')}
          </Button>
        </div>
        <ProductList kind="financial" limit={3} />
      </div>
    </div>
  );
}
