/**
 * One loan (/pages/loan/detail?id=<loan>): its state (under review, active, overdue by some days,
 * repaid, or rejected with the reason), what it owes now (principal, interest due with the days
 * ended and not yet accrued, the total), the terms it was asked under, its dates, the way to repay
 * it, its repayments, and its interest day by day (each day's kind, principal, interest and what
 * daily settlement took from the balance for it).
 */
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useSearchParams } from 'react-router';
import {
  formatDateTime,
  isPositive,
  LOAN_SETTLEMENT,
  LOAN_STATUS,
  type LoanInterestRecord,
} from '@bourse/shared';
import { ApiError } from '../../api';
import { RecordList, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { ErrorState, ListSkeleton, Num } from '../../components/status-views';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { money, percentText } from '../../lib/trade';
import { fetchInterestPage, fetchRepaymentPage, loanKeys, useLoan, type LoanOrder } from './api';
import { daysText, LoanRow, LoanStatusTag } from './loan-parts';

const KIND_KEY: Record<LoanInterestRecord['kind'], string> = {
  free: 'loan_dayFree',
  normal: 'loan_dayNormal',
  overdue: 'loan_dayOverdue',
};

function StatusCard({ loan }: { loan: LoanOrder }) {
  const { t } = useTranslation();
  const active = loan.status === LOAN_STATUS.active;
  return (
    <section className="card stack" style={{ gap: 8 }} data-testid="loan-detail-status">
      <div className="ln-head">
        <h2>{loan.productName}</h2>
        <LoanStatusTag loan={loan} />
      </div>
      <div className="ln-figure">
        <span className="muted">{t(active ? 'loan_totalDue' : 'loan_askedAmount')}</span>
        <strong data-testid="loan-detail-total">
          <Num>
            {money(active ? loan.totalDue : loan.amount, loan.scale)} {loan.currencyName}
          </Num>
        </strong>
      </div>
      {loan.status === LOAN_STATUS.reviewing && <p className="ln-note">{t('loan_reviewText')}</p>}
      {loan.overdue && (
        <p className="ln-warning" data-testid="loan-detail-overdue">
          {translate('loan_overdueDays', [loan.overdueDays])}
        </p>
      )}
      {loan.status === LOAN_STATUS.rejected && (
        <p className="ln-warning" data-testid="loan-detail-reason">
          {t('loan_rejectReason')}: {loan.rejectReason ?? '- -'}
        </p>
      )}
      {active && (
        <Button
          block
          color="primary"
          data-testid="loan-detail-repay"
          onClick={() => navigateTo('loanRepay', { id: loan.id })}
        >
          {t('loan_repay')}
        </Button>
      )}
    </section>
  );
}

function AmountsCard({ loan }: { loan: LoanOrder }) {
  const { t } = useTranslation();
  const amount = (value: string) => `${money(value, loan.scale)} ${loan.currencyName}`;
  const lent = loan.status === LOAN_STATUS.active || loan.status === LOAN_STATUS.repaid;
  return (
    <section className="card" data-testid="loan-detail-amounts">
      <LoanRow label={t('loan_askedAmount')} value={amount(loan.amount)} />
      {loan.approvedAmount && (
        <LoanRow
          label={t('loan_approvedAmount')}
          value={amount(loan.approvedAmount)}
          testId="loan-detail-lent"
        />
      )}
      {lent && (
        <>
          <LoanRow
            label={t('loan_principal')}
            value={amount(loan.principal)}
            testId="loan-detail-principal"
          />
          <LoanRow
            label={t('loan_interestDue')}
            value={amount(loan.interestDue)}
            testId="loan-detail-interest"
          />
          <LoanRow label={t('loan_interestPaid')} value={amount(loan.interestPaid)} />
          <LoanRow label={t('loan_principalRepaid')} value={amount(loan.principalRepaid)} />
        </>
      )}
    </section>
  );
}

function TermsCard({ loan }: { loan: LoanOrder }) {
  const { t } = useTranslation();
  return (
    <section className="card" data-testid="loan-detail-terms">
      <LoanRow label={t('loan_term')} value={daysText(loan.termDays)} number={false} />
      {loan.interestFreeDays > 0 && (
        <LoanRow
          label={t('loan_freeDays')}
          value={daysText(loan.interestFreeDays)}
          number={false}
        />
      )}
      <LoanRow label={t('loan_dailyRate')} value={percentText(loan.dailyRate)} />
      <LoanRow label={t('loan_overdueRate')} value={percentText(loan.overdueDailyRate)} />
      <LoanRow
        label={t('loan_settlement')}
        value={t(
          loan.settlement === LOAN_SETTLEMENT.daily ? 'loan_settlement1' : 'loan_settlement2',
        )}
        number={false}
      />
      {loan.startDate && <LoanRow label={t('loan_startDate')} value={loan.startDate} />}
      {loan.dueDate && (
        <LoanRow label={t('loan_dueDate')} value={loan.dueDate} testId="loan-detail-due" />
      )}
      {loan.startDate && (
        <LoanRow label={t('loan_daysUsed')} value={daysText(loan.daysUsed)} number={false} />
      )}
      <LoanRow label={t('loan_orderNo')} value={loan.orderNo} />
      <LoanRow label={t('loan_applied')} value={formatDateTime(loan.createTime)} />
      {loan.repaidTime && (
        <LoanRow label={t('loan_repaidTime')} value={formatDateTime(loan.repaidTime)} />
      )}
    </section>
  );
}

function Repayments({ loan }: { loan: LoanOrder }) {
  const { t } = useTranslation();
  const page = useQuery({
    queryKey: loanKeys.repayments(loan.id),
    queryFn: () => fetchRepaymentPage(loan.id, { pageNum: 1, pageSize: 50 }),
    refetchOnMount: 'always',
  });
  if (!page.data || page.data.rows.length === 0) return null;
  return (
    <>
      <h2 className="ln-section-title">{t('loan_repayments')}</h2>
      <div className="card-list">
        <section className="card" data-testid="loan-detail-repayments">
          <ul className="ln-records">
            {page.data.rows.map((row) => (
              <li className="ln-record" key={row.id} data-testid={`loan-repayment-${row.id}`}>
                <span className="stack" style={{ gap: 2 }}>
                  <Num>{formatDateTime(row.createTime)}</Num>
                  <span className="muted">
                    {translate('loan_repaymentLine', [
                      money(row.interest, loan.scale),
                      money(row.principal, loan.scale),
                    ])}
                  </span>
                </span>
                <Num>
                  {money(row.amount, loan.scale)} {loan.currencyName}
                </Num>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </>
  );
}

function InterestDays({ loan }: { loan: LoanOrder }) {
  const { t } = useTranslation();
  const list = useRecordPages<LoanInterestRecord, number>(loanKeys.interest(loan.id), (page) =>
    fetchInterestPage(loan.id, page),
  );
  return (
    <>
      <h2 className="ln-section-title">{t('loan_interestRecords')}</h2>
      <RecordList
        list={list}
        className="card-list"
        testId="loan-interest-rows"
        empty={{ title: t('loan_interestEmpty'), testId: 'loan-interest-empty', compact: true }}
      >
        <section className="card">
          <ul className="ln-records">
            {list.rows.map((row) => (
              <li className="ln-record" key={row.id} data-testid={`loan-day-${row.dayNumber}`}>
                <span className="stack" style={{ gap: 2 }}>
                  <span>
                    <Num>{row.day}</Num> · {translate('loan_dayNumber', [row.dayNumber])}
                  </span>
                  <span className={row.kind === 'overdue' ? 'down' : 'muted'}>
                    {t(KIND_KEY[row.kind])} · <Num>{percentText(row.rate)}</Num>
                  </span>
                  {isPositive(row.settled) && (
                    <span className="muted">
                      {translate('loan_settled', [money(row.settled, loan.scale)])}
                    </span>
                  )}
                </span>
                <Num>
                  {money(row.amount, loan.scale)} {row.currencyName}
                </Num>
              </li>
            ))}
          </ul>
        </section>
      </RecordList>
    </>
  );
}

export default function LoanDetailPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const id = Number(search.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const loan = useLoan(id, valid);
  return (
    <SignedInScreen testId="loan-detail-page" title={t('loan_detailTitle')}>
      {!valid || (loan.error instanceof ApiError && loan.error.msg === 'hint_loanNotFound') ? (
        <p className="muted card-list" data-testid="loan-not-found">
          {t('loan_notFound')}
        </p>
      ) : loan.isError && !loan.data ? (
        <ErrorState onRetry={() => void loan.refetch()} />
      ) : !loan.data ? (
        <ListSkeleton />
      ) : (
        <>
          <div className="card-list">
            <StatusCard loan={loan.data} />
            <AmountsCard loan={loan.data} />
            <TermsCard loan={loan.data} />
          </div>
          <Repayments loan={loan.data} />
          {loan.data.startDate && <InterestDays loan={loan.data} />}
        </>
      )}
    </SignedInScreen>
  );
}
