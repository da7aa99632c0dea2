/**
 * Buying a product: the amount (checked against the product's bounds, the currency's decimals and
 * the available balance), then the confirm sheet with every figure the order will be paid by,
 * worked out by the functions the server pays with (packages/shared/src/earn.ts): the rate of the
 * amount (its tier), the interest over the term (or per day when flexible), the first interest day
 * and the day the principal comes back (UTC). The rate shown is sent with the order: had the
 * product changed it meanwhile, the server refuses rather than pay another.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  accrueDay,
  earnDay,
  earnTermDays,
  expectedInterest,
  formatMessage,
  gt,
  isZero,
  lt,
  normalize,
  parseDecimal,
  rateForAmount,
  scaleOf,
  type EarnKind,
  type EarnProduct,
} from '@bourse/shared';
import { ApiError } from '../../api/client';
import { AmountField } from '../../components/amount-field';
import { BottomSheet } from '../../components/bottom-sheet';
import { SheetButtons } from '../../components/sheet-buttons';
import { Num } from '../../components/status-views';
import { useSubmit } from '../../hooks/use-submit';
import { useUser } from '../../hooks/use-user';
import { useTranslation } from '../../i18n/react';
import { currentHref, navigateTo } from '../../lib/navigation';
import { showToast } from '../../lib/toast';
import { fetchBalance, percentText, useRequestId } from '../../lib/trade';
import { buyProduct, earnKeys } from './api';
import { amountText, Line, ORDERS_ROUTE, PenaltyLine, payoutText, termText } from './earn-parts';

/** What is wrong with an amount typed for `product`, or undefined. */
function amountProblem(
  text: string,
  product: EarnProduct,
  available: string | undefined,
  t: (key: string) => string,
): string | undefined {
  if (!text.trim()) return t('earn_amountRequired');
  const parsed = parseDecimal(text.trim(), { sign: 'positive' });
  if (!parsed.ok) return t('earn_amountInvalid');
  if (scaleOf(parsed.value) > product.scale)
    return formatMessage(t('earn_amountDecimals'), [product.scale]);
  if (lt(parsed.value, product.minAmount))
    return formatMessage(t('earn_amountBelow'), [amountText(product.minAmount, product)]);
  if (product.maxAmount !== null && gt(parsed.value, product.maxAmount))
    return formatMessage(t('earn_amountAbove'), [amountText(product.maxAmount, product)]);
  if (available !== undefined && gt(parsed.value, available)) return t('earn_amountBalance');
  return undefined;
}

/** The figures of an order of `amount` placed today, as the server will pay them. */
export function orderTerms(product: EarnProduct, amount: string, today = earnDay(new Date())) {
  const dailyRate = rateForAmount(amount, product);
  const days = earnTermDays(today, product.termDays);
  return {
    dailyRate,
    firstDay: days.firstDay,
    endDay: days.endDay,
    total:
      product.termDays === null
        ? null
        : expectedInterest({
            amount,
            dailyRate,
            days: product.termDays,
            scale: product.scale,
            compounding: product.compounding,
          }),
    perDay: accrueDay(amount, dailyRate, '0', product.scale).interest,
  };
}

export function BuyForm({ kind, product }: { kind: EarnKind; product: EarnProduct }) {
  const { t } = useTranslation();
  const { user, signedIn } = useUser();
  const queryClient = useQueryClient();
  const book = user?.accountType;
  const demo = book === 2;
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const request = useRequestId(kind === 'financial' ? 'lock' : 'stake');
  const balance = useQuery({
    queryKey: ['userBalance', product.currencyId, book],
    queryFn: () => fetchBalance(product.currencyId),
    enabled: signedIn,
  });
  const available = balance.data?.amount;
  const problem = amountProblem(amount, product, available, t);
  const parsed = parseDecimal(amount.trim(), { sign: 'positive' });
  const terms = !problem && parsed.ok ? orderTerms(product, parsed.value) : undefined;
  const closed = product.status !== 1;

  const place = useSubmit(async () => {
    if (!terms || !parsed.ok) return;
    let order;
    try {
      order = await buyProduct(kind, {
        productId: product.id,
        amount: parsed.value,
        requestId: request.idFor(`${product.id}:${parsed.value}`),
        dailyRate: terms.dailyRate,
      });
    } catch (error) {
      // The product changed since it was read (the client has said so): read it again and let the
      // user confirm the new terms.
      if (error instanceof ApiError && error.msg === 'hint_earnRateChanged') {
        setConfirming(false);
        void queryClient.invalidateQueries({ queryKey: earnKeys.products(kind) });
      }
      throw error;
    }
    request.reset();
    setConfirming(false);
    setAmount('');
    setTouched(false);
    showToast(t(order.status === 0 ? 'earn_placedReview' : 'earn_placed'));
    void queryClient.invalidateQueries({ queryKey: ['userBalance'] });
    void queryClient.invalidateQueries({ queryKey: ['balances'] });
    void queryClient.invalidateQueries({ queryKey: earnKeys.orders(kind) });
    void queryClient.invalidateQueries({ queryKey: earnKeys.products(kind) });
    navigateTo(ORDERS_ROUTE[kind]);
  });

  if (!signedIn)
    return (
      <Button
        block
        color="primary"
        data-testid="earn-sign-in"
        onClick={() => navigateTo('login', { redirect: currentHref() })}
      >
        {t('earn_signInToBuy')}
      </Button>
    );

  return (
    <section className="card stack er-buy" data-testid="earn-buy">
      <div className="row">
        <span className="muted">{t('earn_available')}</span>
        <span className="spacer" />
        <Num testId="earn-available">
          {available === undefined ? '- -' : amountText(available, product)}
        </Num>
      </div>
      <AmountField
        label={t('earn_amount')}
        id="earn-amount"
        placeholder={t('earn_amountPlaceholder')}
        value={amount}
        error={touched ? problem : undefined}
        onChange={(value) => {
          setAmount(value);
          setTouched(true);
        }}
      >
        <button
          type="button"
          className="link er-max"
          data-testid="earn-max"
          disabled={available === undefined || isZero(available)}
          onClick={() => {
            if (available === undefined) return;
            const most =
              product.maxAmount !== null && gt(available, product.maxAmount)
                ? product.maxAmount
                : available;
            setAmount(normalize(most));
            setTouched(true);
          }}
        >
          {t('earn_max')}
        </button>
      </AmountField>
      {terms && (
        <div className="er-terms" data-testid="earn-preview">
          <Line label={t('earn_rateForAmount')} value={percentText(terms.dailyRate)} />
          {terms.total !== null ? (
            <Line label={t('earn_expectedInterest')} value={amountText(terms.total, product)} />
          ) : (
            <Line label={t('earn_interestPerDay')} value={amountText(terms.perDay, product)} />
          )}
        </div>
      )}
      <Button
        block
        color="primary"
        disabled={closed}
        data-testid="earn-buy-button"
        onClick={() => {
          setTouched(true);
          if (terms) setConfirming(true);
        }}
      >
        {closed ? t('earn_closed') : t(kind === 'financial' ? 'earn_buy' : 'earn_stakeNow')}
      </Button>
      <BottomSheet
        visible={confirming && terms !== undefined}
        onClose={() => setConfirming(false)}
        onMaskClick={() => !place.pending && setConfirming(false)}
        destroyOnClose
        bodyClassName="trade-sheet"
      >
        {terms && parsed.ok && (
          <div className="stack" data-testid="earn-confirm">
            <h2 className="sheet-title">{t('earn_confirmTitle')}</h2>
            {demo && <p className="er-note">{t('earn_demoNote')}</p>}
            <div className="er-terms">
              <Line label={t('earn_product')} value={product.name} number={false} />
              <Line
                label={t('earn_amount')}
                value={amountText(parsed.value, product)}
                testId="earn-confirm-amount"
                strong
              />
              <Line
                label={t('earn_dailyRate')}
                value={percentText(terms.dailyRate)}
                testId="earn-confirm-rate"
              />
              <Line label={t('earn_term')} value={termText(product.termDays)} number={false} />
              <Line label={t('earn_firstDay')} value={terms.firstDay} testId="earn-confirm-first" />
              {terms.endDay && (
                <Line label={t('earn_endDay')} value={terms.endDay} testId="earn-confirm-end" />
              )}
              <Line label={t('earn_payout')} value={payoutText(product)} number={false} />
              {terms.total !== null ? (
                <Line
                  label={t('earn_expectedInterest')}
                  value={amountText(terms.total, product)}
                  testId="earn-confirm-interest"
                  strong
                />
              ) : (
                <Line
                  label={t('earn_interestPerDay')}
                  value={amountText(terms.perDay, product)}
                  testId="earn-confirm-interest"
                  strong
                />
              )}
              <PenaltyLine product={product} />
            </div>
            {product.requiresReview && !demo && <p className="er-note">{t('earn_reviewNote')}</p>}
            <p className="muted er-small">
              {formatMessage(t('earn_confirmNote'), [product.scale])}
            </p>
            <SheetButtons
              pending={place.pending}
              onCancel={() => setConfirming(false)}
              color="primary"
              label={t('earn_confirm')}
              testId="earn-confirm-button"
              onConfirm={() => void place.submit()}
            />
          </div>
        )}
      </BottomSheet>
    </section>
  );
}
