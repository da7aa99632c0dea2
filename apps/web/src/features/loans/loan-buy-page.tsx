/**
 * Applying for a loan (/pages/loan/buy?id=<product>): the product's terms, the amount (within its
 * range and its currency's decimals), the product's own fields (text, number, a choice, a photo
 * compressed as the spec says before it is sent), and, before confirming, what repaying on the due
 * date costs: the term's interest and the total, from the shared function the server accrues by
 * (loanRepaymentAtTerm), with a day's interest and an overdue day's. The application is then left
 * for review; one request id per filling of the form, so a retried tap never applies twice.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Input, TextArea } from 'antd-mobile';
import { CameraOutline } from 'antd-mobile-icons';
import { useSearchParams } from 'react-router';
import {
  addDaysTo,
  gt,
  isDecimalString,
  LOAN_LIMITS,
  LOAN_SETTLEMENT,
  loanRepaymentAtTerm,
  lt,
  parseDecimal,
  scaleOf,
  utcDate,
} from '@bourse/shared';
import { ApiError, showToast } from '../../api';
import { AmountField } from '../../components/amount-field';
import { ChoiceRow } from '../../components/choice-row';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Field } from '../../components/field';
import { FieldGroup } from '../../components/field-group';
import { Form, SubmitButton } from '../../components/form';
import { SignedInScreen } from '../../components/signed-in-screen';
import { ErrorState, ListSkeleton } from '../../components/status-views';
import { useImagePick } from '../../hooks/use-image-pick';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { redirectTo } from '../../lib/navigation';
import { money, useRequestId } from '../../lib/trade';
import { applyLoan, loansChanged, useLoanProducts, type LoanField, type LoanProduct } from './api';
import { daysText, LoanRow, ProductTerms } from './loan-parts';

type Problem = { key: string; params?: readonly unknown[] };

/** The refusals that name the amount. */
const AMOUNT_HINTS = new Set([
  'hint_amountBelowMin',
  'hint_amountAboveMax',
  'hint_amountDecimals',
  'hint_amount_format',
  'hint_amount_scale',
  'hint_amount_range',
  'hint_amount_sign',
]);

/** What is wrong with the amount typed, by the product's range and its currency's decimals. */
function amountProblem(amount: string, product: LoanProduct): Problem | undefined {
  if (!amount) return { key: 'loan_amountRequired' };
  if (!isDecimalString(amount) || !gt(amount, '0')) return { key: 'hint_amount_format' };
  if (scaleOf(amount) > product.scale)
    return { key: 'hint_amountDecimals', params: [product.scale, product.currencyName] };
  if (lt(amount, product.minAmount))
    return { key: 'hint_amountBelowMin', params: [product.minAmount, product.currencyName] };
  if (gt(amount, product.maxAmount))
    return { key: 'hint_amountAboveMax', params: [product.maxAmount, product.currencyName] };
  return undefined;
}

/** What is wrong with a field's answer (the server checks the same). */
function fieldProblem(field: LoanField, value: string | undefined): Problem | undefined {
  const text = value?.trim() ?? '';
  if (!text) return field.required ? { key: 'hint_loanFieldRequired' } : undefined;
  if (field.type === 'number' && !parseDecimal(text, { sign: 'any' }).ok)
    return { key: 'hint_loanFieldInvalid' };
  if (field.type === 'text' && text.length > LOAN_LIMITS.textAnswerMax)
    return { key: 'hint_loanFieldInvalid' };
  return undefined;
}

function ImageAnswer({
  field,
  value,
  onChange,
}: {
  field: LoanField;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const { busy, pick } = useImagePick(onChange);
  const inputId = `loan-field-${field.key}`;
  return (
    <>
      <input
        id={inputId}
        className="ln-file"
        type="file"
        accept="image/jpeg,image/png"
        aria-label={field.label}
        disabled={busy}
        data-testid={`loan-file-${field.key}`}
        onChange={(event) => void pick(event)}
      />
      {value ? (
        <div className="ln-image-preview">
          <img src={value} alt={field.label} data-testid={`loan-preview-${field.key}`} />
          <div className="stack" style={{ gap: 8 }}>
            <label htmlFor={inputId} className="field-addon">
              {t('proof_change')}
            </label>
            <button
              type="button"
              className="field-addon"
              style={{ color: 'var(--danger)' }}
              onClick={() => onChange(undefined)}
            >
              {t('proof_remove')}
            </button>
          </div>
        </div>
      ) : (
        <label htmlFor={inputId} className="card ln-image-pick">
          <CameraOutline fontSize={28} aria-hidden="true" />
          <span>{t('loan_choosePhoto')}</span>
        </label>
      )}
    </>
  );
}

function FieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: LoanField;
  value: string | undefined;
  error: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const label = field.required ? field.label : `${field.label} ${t('loan_optional')}`;
  const id = `loan-field-${field.key}`;
  if (field.type === 'choice')
    return (
      <FieldGroup label={label} labelId={`${id}-label`} error={error}>
        <ChoiceRow
          className="chips"
          label={field.label}
          options={field.options.map((option) => option.value)}
          text={(option) => field.options.find((item) => item.value === option)?.label ?? option}
          value={value}
          onChange={onChange}
          testId={`loan-choice-${field.key}`}
        />
      </FieldGroup>
    );
  if (field.type === 'image')
    return (
      <FieldGroup label={label} error={error}>
        <ImageAnswer field={field} value={value} onChange={onChange} />
      </FieldGroup>
    );
  if (field.type === 'text')
    return (
      <Field label={label} htmlFor={id} error={error}>
        <TextArea
          id={id}
          autoSize={{ minRows: 2, maxRows: 5 }}
          maxLength={LOAN_LIMITS.textAnswerMax}
          value={value ?? ''}
          placeholder={t('loan_answerPlaceholder')}
          onChange={onChange}
          data-testid={`loan-text-${field.key}`}
        />
      </Field>
    );
  return (
    <Field label={label} htmlFor={id} error={error}>
      <Input
        id={id}
        inputMode="decimal"
        value={value ?? ''}
        placeholder={t('loan_answerPlaceholder')}
        onChange={(next) => onChange(next.replace(/[^\d.-]/g, ''))}
        data-testid={`loan-number-${field.key}`}
      />
    </Field>
  );
}

function ApplyForm({ product }: { product: LoanProduct }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [answers, setAnswers] = useState<Record<string, string | undefined>>({});
  const [touched, setTouched] = useState(false);
  const [refused, setRefused] = useState<{ field: string; problem: Problem }>();
  const [confirming, setConfirming] = useState(false);
  const request = useRequestId('loan');

  const problems: Record<string, Problem | undefined> = {
    amount: amountProblem(amount, product),
    ...Object.fromEntries(
      product.fields.map((field) => [field.key, fieldProblem(field, answers[field.key])]),
    ),
  };
  const shown = (field: string): string | undefined => {
    const problem = touched ? problems[field] : undefined;
    if (problem) return translate(problem.key, problem.params ?? []);
    if (refused?.field === field)
      return translate(refused.problem.key, refused.problem.params ?? []);
    return undefined;
  };
  const valid = !Object.values(problems).some(Boolean);
  const figures = problems.amount ? undefined : loanRepaymentAtTerm(amount, product, product.scale);
  const dueDate = addDaysTo(utcDate(new Date()), product.termDays);
  const filled = Object.fromEntries(
    Object.entries(answers).filter((entry): entry is [string, string] => Boolean(entry[1]?.trim())),
  );
  const key = JSON.stringify([amount, filled]);

  const setAnswer = (field: string, value: string | undefined) => {
    setAnswers((current) => ({ ...current, [field]: value }));
    if (refused?.field === field) setRefused(undefined);
  };

  const { submit, pending } = useSubmit(async () => {
    try {
      const loan = await applyLoan({
        loanProductId: product.id,
        amount,
        requestId: request.idFor(key),
        fields: filled,
      });
      request.reset();
      setConfirming(false);
      showToast(t('loan_submitted'));
      loansChanged(queryClient);
      redirectTo('loanDetail', { id: loan.id });
    } catch (error) {
      setConfirming(false);
      if (error instanceof ApiError) {
        const named = [...error.params]
          .reverse()
          .find(
            (param): param is string =>
              typeof param === 'string' && (param === 'amount' || param in problems),
          );
        const field = AMOUNT_HINTS.has(error.msg) ? 'amount' : named;
        if (field) setRefused({ field, problem: { key: error.msg, params: error.params } });
        if (error.msg === 'hint_loanLimitReached' || error.msg === 'hint_loanProductClosed')
          loansChanged(queryClient);
      }
      throw error;
    }
  });

  return (
    <Form
      onSubmit={async () => {
        setTouched(true);
        if (valid) setConfirming(true);
      }}
      className="stack"
      testId="loan-apply-form"
    >
      <AmountField
        label={t('loan_amount')}
        id="loan-amount"
        value={amount}
        error={shown('amount')}
        placeholder={translate('loan_amountHint', [
          money(product.minAmount, product.scale),
          money(product.maxAmount, product.scale),
          product.currencyName,
        ])}
        onChange={(value) => {
          setAmount(value);
          if (refused?.field === 'amount') setRefused(undefined);
        }}
        data-testid="loan-amount"
      >
        <span className="field-addon">{product.currencyName}</span>
      </AmountField>

      {product.fields.map((field) => (
        <FieldInput
          key={field.key}
          field={field}
          value={answers[field.key]}
          error={shown(field.key)}
          onChange={(value) => setAnswer(field.key, value)}
        />
      ))}

      <section className="ln-summary" data-testid="loan-summary">
        <strong>{t('loan_summary')}</strong>
        <div className="ln-terms">
          <LoanRow
            label={t('loan_summaryInterest')}
            value={
              figures ? `${money(figures.interest, product.scale)} ${product.currencyName}` : '- -'
            }
            testId="loan-summary-interest"
          />
          <LoanRow
            label={t('loan_summaryTotal')}
            value={
              figures ? `${money(figures.total, product.scale)} ${product.currencyName}` : '- -'
            }
            testId="loan-summary-total"
            strong
          />
          <LoanRow label={t('loan_summaryDueDate')} value={dueDate} testId="loan-summary-due" />
          <LoanRow
            label={t('loan_summaryDaily')}
            value={
              figures
                ? `${money(figures.dailyInterest, product.scale)} ${product.currencyName}`
                : '- -'
            }
          />
          <LoanRow
            label={t('loan_summaryOverdue')}
            value={
              figures
                ? `${money(figures.overdueDailyInterest, product.scale)} ${product.currencyName}`
                : '- -'
            }
          />
        </div>
        <p className="ln-note">{t('loan_rules')}</p>
        {product.settlement === LOAN_SETTLEMENT.daily && (
          <p className="ln-note">{t('loan_dailyNote')}</p>
        )}
      </section>

      <SubmitButton pending={pending} large>
        {t('loan_apply')}
      </SubmitButton>

      <ConfirmDialog
        visible={confirming}
        title={t('loan_confirmTitle')}
        pending={pending}
        onClose={() => setConfirming(false)}
        onConfirm={() => void submit()}
        content={
          figures && (
            <div data-testid="loan-confirm">
              {translate('loan_confirmText', [
                money(amount, product.scale),
                product.currencyName,
                product.termDays,
                money(figures.total, product.scale),
              ])}
            </div>
          )
        }
      />
    </Form>
  );
}

export default function LoanBuyPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const id = Number(search.get('id'));
  const products = useLoanProducts();
  const product = products.data?.find((row) => row.id === id);
  return (
    <SignedInScreen testId="loan-buy-page" title={t('loan_applyTitle')}>
      <div className="card-list">
        {products.isPending ? (
          <ListSkeleton rows={2} />
        ) : products.isError && !products.data ? (
          <ErrorState compact onRetry={() => void products.refetch()} />
        ) : !product ? (
          <p className="muted" data-testid="loan-product-missing">
            {t('loan_productMissing')}
          </p>
        ) : (
          <>
            <section className="card" data-testid="loan-buy-product">
              <div className="ln-head">
                <h2>{product.name}</h2>
                <span className="list-tag">{daysText(product.termDays)}</span>
              </div>
              {product.description && <p className="ln-desc">{product.description}</p>}
              <ProductTerms product={product} />
              {product.identityMet === false && (
                <p className="ln-warning">{t('loan_identityNeeded')}</p>
              )}
            </section>
            <section className="card">
              <ApplyForm product={product} />
            </section>
          </>
        )}
      </div>
    </SignedInScreen>
  );
}
