/**
 * Repaying a loan (/pages/loan/rePay?id=<loan>): what it owes now (interest due, with the days
 * ended and not yet accrued, and principal), the available balance, all of it or a part, and,
 * before confirming, how the amount splits (interest first, then principal) and what stays due,
 * from the shared function the server splits by (loanRepaymentSplit). The interest due shown is
 * sent with the repayment: if a day ended meanwhile the server refuses it and the screen reads the
 * loan again, so what is confirmed is what is paid. One request id per amount.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { add, gt, isDecimalString, LOAN_STATUS, loanRepaymentSplit, scaleOf } from '@bourse/shared';
import { ApiError, showToast } from '../../api';
import { AmountField } from '../../components/amount-field';
import { ChoiceRow } from '../../components/choice-row';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Form, SubmitButton } from '../../components/form';
import { SignedInScreen } from '../../components/signed-in-screen';
import { ErrorState, ListSkeleton } from '../../components/status-views';
import { useUser } from '../../hooks/use-user';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { redirectTo } from '../../lib/navigation';
import { fetchBalance, money, useRequestId } from '../../lib/trade';
import { loanKeys, loansChanged, repayLoan, useLoan, type LoanOrder } from './api';
import { LoanRow, LoanStatusTag } from './loan-parts';

type Mode = 'all' | 'part';
const MODES: readonly Mode[] = ['all', 'part'];

function RepayForm({ loan }: { loan: LoanOrder }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const book = useUser().user?.accountType;
  const [mode, setMode] = useState<Mode>('all');
  const [part, setPart] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const request = useRequestId('repay');
  const balance = useQuery({
    queryKey: ['userBalance', loan.currencyId, book],
    queryFn: () => fetchBalance(loan.currencyId),
  });
  const available = balance.data?.amount;
  const amount = mode === 'all' ? loan.totalDue : part;
  const currency = loan.currencyName;

  let problem: string | undefined;
  if (!amount || !isDecimalString(amount) || !gt(amount, '0')) problem = t('loan_amountRequired');
  else if (scaleOf(amount) > loan.scale)
    problem = translate('hint_amountDecimals', [loan.scale, currency]);
  else if (gt(amount, loan.totalDue))
    problem = translate('loan_amountTooHigh', [money(loan.totalDue, loan.scale), currency]);
  else if (available !== undefined && gt(amount, available)) problem = t('loan_amountAboveBalance');
  const error = touched ? problem : undefined;
  const split = problem
    ? undefined
    : loanRepaymentSplit(amount, { interest: loan.interestDue, principal: loan.principal });

  const { submit, pending } = useSubmit(async () => {
    try {
      const repayment = await repayLoan({
        loanOrderId: loan.id,
        amount,
        interestDue: loan.interestDue,
        requestId: request.idFor(`${amount}|${loan.interestDue}`),
      });
      request.reset();
      setConfirming(false);
      showToast(t(repayment.repaid ? 'loan_repaidInFull' : 'loan_repaymentDone'));
      loansChanged(queryClient);
      redirectTo('loanDetail', { id: loan.id });
    } catch (caught) {
      setConfirming(false);
      if (caught instanceof ApiError && caught.msg !== 'hint_insufficientBalance')
        void queryClient.invalidateQueries({ queryKey: loanKeys.order(loan.id) });
      void balance.refetch();
      throw caught;
    }
  });

  return (
    <Form
      onSubmit={async () => {
        setTouched(true);
        if (!problem) setConfirming(true);
      }}
      className="stack"
      testId="loan-repay-form"
    >
      <ChoiceRow
        className="segmented"
        label={t('loan_repayAmount')}
        options={MODES}
        value={mode}
        onChange={setMode}
        text={(value) => t(value === 'all' ? 'loan_repayAll' : 'loan_repayPart')}
        testId="loan-repay-mode"
      />
      {mode === 'part' ? (
        <AmountField
          label={t('loan_repayAmount')}
          id="loan-repay-amount"
          value={part}
          error={error}
          placeholder={t('loan_amountPlaceholder')}
          onChange={setPart}
          data-testid="loan-repay-amount"
        >
          <span className="field-addon">{currency}</span>
        </AmountField>
      ) : (
        <>
          <LoanRow
            label={t('loan_repayAmount')}
            value={`${money(loan.totalDue, loan.scale)} ${currency}`}
            testId="loan-repay-all"
            strong
          />
          {error && (
            <div className="field-error" role="alert">
              {error}
            </div>
          )}
        </>
      )}
      <p className="muted" style={{ margin: 0, fontSize: 13 }} data-testid="loan-repay-available">
        {translate('loan_available', [
          available === undefined ? '- -' : money(available, loan.scale),
          currency,
        ])}
      </p>

      <section className="ln-summary" data-testid="loan-split">
        <strong>{t('loan_splitTitle')}</strong>
        <div className="ln-terms">
          <LoanRow
            label={t('loan_splitInterest')}
            value={split ? `${money(split.interest, loan.scale)} ${currency}` : '- -'}
            testId="loan-split-interest"
          />
          <LoanRow
            label={t('loan_splitPrincipal')}
            value={split ? `${money(split.principal, loan.scale)} ${currency}` : '- -'}
            testId="loan-split-principal"
          />
          <LoanRow
            label={t('loan_splitLeft')}
            value={
              split
                ? `${money(add(split.interestLeft, split.principalLeft), loan.scale)} ${currency}`
                : '- -'
            }
            testId="loan-split-left"
            strong
          />
        </div>
        <p className="ln-note">{t('loan_repayRules')}</p>
      </section>

      <SubmitButton pending={pending} large>
        {t('loan_repay')}
      </SubmitButton>

      <ConfirmDialog
        visible={confirming}
        title={t('loan_repayConfirmTitle')}
        pending={pending}
        onClose={() => setConfirming(false)}
        onConfirm={() => void submit()}
        content={
          split && (
            <div data-testid="loan-repay-confirm">
              {translate('loan_repayConfirmText', [
                money(amount, loan.scale),
                currency,
                money(split.interest, loan.scale),
                money(split.principal, loan.scale),
              ])}
            </div>
          )
        }
      />
    </Form>
  );
}

export default function LoanRepayPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const id = Number(search.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const loan = useLoan(id, valid);
  const data = loan.data;
  return (
    <SignedInScreen testId="loan-repay-page" title={t('loan_repayTitle')}>
      <div className="card-list">
        {!valid ? (
          <p className="muted">{t('loan_notFound')}</p>
        ) : loan.isError && !data ? (
          <ErrorState compact onRetry={() => void loan.refetch()} />
        ) : !data ? (
          <ListSkeleton rows={2} />
        ) : (
          <>
            <section className="card" data-testid="loan-repay-due">
              <div className="ln-head">
                <h2>{data.productName}</h2>
                <LoanStatusTag loan={data} />
              </div>
              <div className="ln-terms">
                <LoanRow
                  label={t('loan_interestDue')}
                  value={`${money(data.interestDue, data.scale)} ${data.currencyName}`}
                  testId="loan-repay-interest"
                />
                <LoanRow
                  label={t('loan_principal')}
                  value={`${money(data.principal, data.scale)} ${data.currencyName}`}
                  testId="loan-repay-principal"
                />
                <LoanRow
                  label={t('loan_totalDue')}
                  value={`${money(data.totalDue, data.scale)} ${data.currencyName}`}
                  testId="loan-repay-total"
                  strong
                />
                {data.dueDate && <LoanRow label={t('loan_dueDate')} value={data.dueDate} />}
              </div>
              {data.overdue && (
                <p className="ln-warning">{translate('loan_overdueDays', [data.overdueDays])}</p>
              )}
            </section>
            {data.status === LOAN_STATUS.active ? (
              <section className="card">
                <RepayForm key={`${data.interestDue}|${data.principal}`} loan={data} />
              </section>
            ) : (
              <p className="muted" data-testid="loan-repay-closed">
                {t('loan_nothingDue')}
              </p>
            )}
          </>
        )}
      </div>
    </SignedInScreen>
  );
}
