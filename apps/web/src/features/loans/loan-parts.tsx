/**
 * Pieces of the loan screens: a loan's state (overdue shown beside active), a row of a detail, and
 * a product's terms as the user reads them before applying.
 */
import { LOAN_SETTLEMENT, LOAN_STATUS } from '@bourse/shared';
import { LabelRow, type LabelRowProps } from '../../components/label-row';
import { Num } from '../../components/status-views';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { money, percentText } from '../../lib/trade';
import type { LoanOrder, LoanProduct } from './api';
import '../../components/card-list.css';
import './loans.css';

export const STATUS_KEY: Record<number, string> = {
  [LOAN_STATUS.reviewing]: 'loan_status0',
  [LOAN_STATUS.active]: 'loan_status1',
  [LOAN_STATUS.repaid]: 'loan_status2',
  [LOAN_STATUS.rejected]: 'loan_status3',
};

/** The colour of each state's tag. */
const STATUS_TONE: Record<string, string> = {
  s0: 'accent',
  s1: 'primary',
  s2: 'success',
  s3: 'danger',
  overdue: 'danger',
};

/** A loan's state: under review, active, repaid or rejected; overdue in its place once past due. */
export function LoanStatusTag({ loan }: { loan: Pick<LoanOrder, 'status' | 'overdue'> }) {
  const { t } = useTranslation();
  const name = loan.overdue ? 'overdue' : `s${loan.status}`;
  const tone = STATUS_TONE[name];
  return (
    <span
      className={tone ? `list-tag list-tag-${tone}` : 'list-tag'}
      data-testid="loan-status"
      data-status={name}
    >
      {loan.overdue ? t('loan_overdue') : t(STATUS_KEY[loan.status] ?? 'loan_status0')}
    </span>
  );
}

const ROW_CLASSES = {
  row: 'ln-row',
  strong: 'ln-row-strong',
  value: 'ln-row-value',
  figure: 'ln-row-figure',
};

/** A label and its value on one line; numbers stay one left-to-right island. */
export function LoanRow(props: LabelRowProps) {
  return <LabelRow {...props} classes={ROW_CLASSES} />;
}

/** A number of days, as "30 days" (and "1 day"). */
export const daysText = (days: number) =>
  days === 1 ? translate('loan_oneDay') : translate('loan_days', [days]);

/** A product's terms: range, term, free days, rates, settlement, identity level. */
export function ProductTerms({ product }: { product: LoanProduct }) {
  const { t } = useTranslation();
  return (
    <div className="ln-terms" data-testid={`loan-product-${product.id}-terms`}>
      <LoanRow
        label={t('loan_amountRange')}
        number={false}
        value={
          <Num>{`${money(product.minAmount, product.scale)} – ${money(product.maxAmount, product.scale)} ${product.currencyName}`}</Num>
        }
      />
      <LoanRow label={t('loan_term')} value={daysText(product.termDays)} number={false} />
      {product.interestFreeDays > 0 && (
        <LoanRow
          label={t('loan_freeDays')}
          value={daysText(product.interestFreeDays)}
          number={false}
        />
      )}
      <LoanRow label={t('loan_dailyRate')} value={percentText(product.dailyRate)} />
      <LoanRow label={t('loan_overdueRate')} value={percentText(product.overdueDailyRate)} />
      <LoanRow
        label={t('loan_settlement')}
        value={t(
          product.settlement === LOAN_SETTLEMENT.daily ? 'loan_settlement1' : 'loan_settlement2',
        )}
        number={false}
      />
    </div>
  );
}
