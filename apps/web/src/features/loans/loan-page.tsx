/**
 * Loans (/pages/loan/loan): the panel (principal outstanding and interest due now per currency,
 * active, overdue and under-review loans, the next due date), the products open to applications
 * with their published terms (each day's rate and the overdue rate as one figure, the free days,
 * how interest is settled, the identity level needed), and the user's loans by state, each leading
 * to its detail. Demo accounts borrow virtual funds (badged).
 */
import { Button } from 'antd-mobile';
import { formatDateTime, LOAN_STATUS, type LoanOrder } from '@bourse/shared';
import { DemoBadge, useDemoAccount } from '../../components/demo-account';
import { RecordList, RecordTabs, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { ErrorState, ListSkeleton, Num } from '../../components/status-views';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { money } from '../../lib/trade';
import {
  fetchLoanPage,
  loanKeys,
  useLoanPanel,
  useLoanProducts,
  type LoanPanel,
  type LoanProduct,
} from './api';
import { daysText, LoanStatusTag, ProductTerms } from './loan-parts';

const FILTERS = [
  ['all', 'loan_tabAll'],
  [LOAN_STATUS.reviewing, 'loan_status0'],
  [LOAN_STATUS.active, 'loan_status1'],
  [LOAN_STATUS.repaid, 'loan_status2'],
  [LOAN_STATUS.rejected, 'loan_status3'],
] as const;

function PanelCard({ panel, fallback }: { panel: LoanPanel; fallback?: LoanProduct }) {
  const { t } = useTranslation();
  const rows =
    panel.currencies.length > 0
      ? panel.currencies
      : [
          {
            currencyId: fallback?.currencyId ?? 0,
            currencyName: fallback?.currencyName ?? '',
            scale: fallback?.scale ?? 2,
            principal: '0',
            interestDue: '0',
            totalDue: '0',
          },
        ];
  return (
    <section className="card ln-panel" data-testid="loan-panel">
      {rows.map((row) => (
        <div className="ln-panel-figures" key={row.currencyId}>
          <div className="ln-figure">
            <span className="muted">{t('loan_outstanding')}</span>
            <strong data-testid={`loan-panel-principal-${row.currencyName}`}>
              <Num>
                {money(row.principal, row.scale)} {row.currencyName}
              </Num>
            </strong>
          </div>
          <div className="ln-figure">
            <span className="muted">{t('loan_interestDue')}</span>
            <strong data-testid={`loan-panel-interest-${row.currencyName}`}>
              <Num>
                {money(row.interestDue, row.scale)} {row.currencyName}
              </Num>
            </strong>
          </div>
        </div>
      ))}
      <div className="ln-counts">
        <span>
          {t('loan_activeCount')} <Num testId="loan-panel-active">{panel.activeCount}</Num>
        </span>
        <span className={panel.overdueCount > 0 ? 'down' : undefined}>
          {t('loan_overdueCount')} <Num testId="loan-panel-overdue">{panel.overdueCount}</Num>
        </span>
        <span>
          {t('loan_reviewingCount')} <Num>{panel.reviewingCount}</Num>
        </span>
        {panel.nextDueDate && panel.nextDueLoanId !== null && (
          <button
            type="button"
            className="link"
            style={{ fontSize: 13 }}
            data-testid="loan-panel-next"
            onClick={() => navigateTo('loanDetail', { id: panel.nextDueLoanId })}
          >
            {t('loan_nextDue')} <Num>{panel.nextDueDate}</Num>
          </button>
        )}
      </div>
    </section>
  );
}

function ProductCard({ product }: { product: LoanProduct }) {
  const { t } = useTranslation();
  const full = product.openLoans >= product.maxOpenLoans;
  return (
    <section className="card" data-testid={`loan-product-${product.id}`}>
      <div className="ln-head">
        <h3>{product.name}</h3>
        <span className="list-tag">{daysText(product.termDays)}</span>
      </div>
      {product.description && <p className="ln-desc">{product.description}</p>}
      <ProductTerms product={product} />
      {product.identityMet === false && (
        <p className="ln-warning" data-testid={`loan-product-${product.id}-identity`}>
          {t('loan_identityNeeded')}{' '}
          <button
            type="button"
            className="link"
            onClick={() => navigateTo('authentication')}
            style={{ fontSize: 13 }}
          >
            {t('loan_verifyNow')}
          </button>
        </p>
      )}
      {full && (
        <p className="ln-warning" data-testid={`loan-product-${product.id}-full`}>
          {translate('loan_limitReached', [product.maxOpenLoans])}
        </p>
      )}
      <Button
        block
        color="primary"
        disabled={full || product.identityMet === false}
        onClick={() => navigateTo('loanBuy', { id: product.id })}
        data-testid={`loan-product-${product.id}-apply`}
      >
        {t('loan_apply')}
      </Button>
    </section>
  );
}

function LoanItem({ loan }: { loan: LoanOrder }) {
  const { t } = useTranslation();
  const amount = loan.approvedAmount ?? loan.amount;
  return (
    <li>
      <button
        type="button"
        className="card ln-loan"
        data-testid={`loan-${loan.id}`}
        onClick={() => navigateTo('loanDetail', { id: loan.id })}
      >
        <div className="ln-head">
          <strong className="ellipsis">{loan.productName}</strong>
          <LoanStatusTag loan={loan} />
        </div>
        <div className="ln-terms">
          <div className="ln-row">
            <span className="muted">
              {t(loan.approvedAmount ? 'loan_approvedAmount' : 'loan_askedAmount')}
            </span>
            <Num>
              {money(amount, loan.scale)} {loan.currencyName}
            </Num>
          </div>
          {loan.status === LOAN_STATUS.active && (
            <div className="ln-row">
              <span className="muted">{t('loan_totalDue')}</span>
              <Num testId={`loan-${loan.id}-due`}>
                {money(loan.totalDue, loan.scale)} {loan.currencyName}
              </Num>
            </div>
          )}
        </div>
        <div className="ln-loan-foot">
          <Num>{loan.orderNo}</Num>
          {loan.dueDate && loan.status === LOAN_STATUS.active ? (
            <span>
              {t('loan_dueDate')} <Num>{loan.dueDate}</Num>
            </span>
          ) : (
            <Num>{formatDateTime(loan.createTime)}</Num>
          )}
        </div>
      </button>
    </li>
  );
}

export default function LoanPage() {
  const { t } = useTranslation();
  const demo = useDemoAccount();
  const panel = useLoanPanel();
  const products = useLoanProducts();
  const loans = useRecordPages<LoanOrder, number>(loanKeys.orders, (page, status) =>
    fetchLoanPage(page, status),
  );
  return (
    <SignedInScreen testId="loan-page" title={t('loan_title')} right={demo && <DemoBadge />}>
      <div className="card-list">
        {demo && <p className="ln-note">{t('loan_demoNote')}</p>}
        {panel.data ? (
          <PanelCard panel={panel.data} fallback={products.data?.[0]} />
        ) : panel.isError ? (
          <ErrorState compact onRetry={() => void panel.refetch()} />
        ) : (
          <ListSkeleton rows={1} />
        )}
      </div>
      <h2 className="ln-section-title">{t('loan_products')}</h2>
      <div className="card-list" data-testid="loan-products">
        {products.isPending ? (
          <ListSkeleton rows={2} />
        ) : products.isError && !products.data ? (
          <ErrorState compact onRetry={() => void products.refetch()} />
        ) : products.data && products.data.length === 0 ? (
          <p className="muted" data-testid="loan-products-empty">
            {t('loan_productsEmpty')}
          </p>
        ) : (
          products.data?.map((product) => <ProductCard key={product.id} product={product} />)
        )}
        <p className="ln-note">{t('loan_rules')}</p>
      </div>
      <h2 className="ln-section-title">{t('loan_myLoans')}</h2>
      <RecordTabs list={loans} label="loan_myLoans" filters={FILTERS} testId="loan-tab" />
      <div role="tabpanel">
        <RecordList
          list={loans}
          className="card-list"
          testId="loan-rows"
          empty={{ title: t('loan_loansEmpty'), testId: 'loan-empty', compact: true }}
        >
          <ul className="card-items">
            {loans.rows.map((loan) => (
              <LoanItem key={loan.id} loan={loan} />
            ))}
          </ul>
        </RecordList>
      </div>
    </SignedInScreen>
  );
}
