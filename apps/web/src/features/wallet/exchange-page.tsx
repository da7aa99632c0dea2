/**
 * Currency exchange (exchange): from and to currencies with their available balances, the amount
 * (typed or a share of the balance), then a quote from the server (rate, fee, what arrives) that
 * can be confirmed for 15 s, counted down on screen. A quote that ran out, here or at the server
 * (hint_quoteExpired), is offered fresh. One request id per quote, so a retried confirm never
 * exchanges twice. Demo accounts exchange their virtual funds too.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, List, Popup } from 'antd-mobile';
import { DownOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import {
  EXCHANGE_QUOTE_TTL_MS,
  gt,
  isDecimalString,
  isZero,
  mul,
  normalize,
  parseDecimal,
  quotesApi,
  toScale,
  walletApi,
  type CurrencyBalance,
  type ExchangeQuote,
} from '@bourse/shared';
import { ApiError, api, showToast } from '../../api';
import { loadPlatformCurrencies, type PlatformCurrency } from '../../api/launch';
import { DemoBadge, useDemoAccount } from '../../components/demo-account';
import { Field } from '../../components/field';
import { ShareButtons } from '../../components/share-buttons';
import { SignedInScreen } from '../../components/signed-in-screen';
import { useUser } from '../../hooks/use-user';
import { translate } from '../../i18n';
import { getItem, getOtherValue, STORAGE_KEY } from '../../lib/storage';
import { cleanAmount, fetchBalances, percentText } from '../../lib/trade';
import { newRequestId } from './recharge-api';
import { money, shortRate } from './wallet-format';
import { RecordsLink } from './wallet-parts';

interface ActiveQuote extends ExchangeQuote {
  /** Local time after which the quote can no longer be confirmed. */
  deadline: number;
  /** The server said it ran out (or the countdown did). */
  expired: boolean;
  requestId: string;
}

const QUOTE_EXPIRED = 'hint_quoteExpired';

/**
 * When a quote stops being confirmable, in local time. The server's expiresAt is trusted when the
 * clocks agree (it is at most the quote's life away); a device clock that is off uses the life
 * from now instead, so the countdown never promises more than the server gives.
 */
function quoteDeadline(expiresAt: string, now: number): number {
  const left = Date.parse(expiresAt) - now;
  return left > 0 && left <= EXCHANGE_QUOTE_TTL_MS + 1000
    ? now + left
    : now + EXCHANGE_QUOTE_TTL_MS;
}

/** The current time, ticking every second while `active`. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function CurrencyPicker({
  label,
  testId,
  value,
  options,
  balances,
  scaleOfCurrency,
  priced,
  onChange,
}: {
  label: string;
  testId: string;
  value: number | undefined;
  options: PlatformCurrency[];
  balances: Map<number, CurrencyBalance>;
  scaleOfCurrency: (id: number) => number;
  priced: (id: number) => boolean;
  onChange: (id: number) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const current = options.find((option) => option.id === value);
  return (
    <>
      <button
        type="button"
        className="area-code-button"
        style={{ display: 'flex', alignItems: 'center', gap: 6, fontWeight: 600, fontSize: 16 }}
        aria-label={`${label}: ${current?.currencyName ?? ''}`}
        data-testid={testId}
        onClick={() => setOpen(true)}
      >
        {current?.currencyName ?? '- -'}
        <DownOutline fontSize={12} />
      </button>
      <Popup
        visible={open}
        onMaskClick={() => setOpen(false)}
        onClose={() => setOpen(false)}
        bodyClassName="area-code-popup"
      >
        <div className="row" style={{ padding: '14px 16px 6px' }}>
          <strong>{t('exchange_chooseCurrency')}</strong>
          <span className="spacer" />
          <span className="muted" style={{ fontSize: 12 }}>
            {t('wallet_available')}
          </span>
        </div>
        <div className="area-code-list" data-testid={`${testId}-options`}>
          <List>
            {options.map((option) => (
              <List.Item
                key={option.id}
                disabled={!priced(option.id)}
                description={priced(option.id) ? undefined : t('exchange_noRate')}
                extra={money(balances.get(option.id)?.amount ?? '0', scaleOfCurrency(option.id))}
                onClick={() => {
                  onChange(option.id);
                  setOpen(false);
                }}
                arrowIcon={false}
                style={option.id === value ? { color: 'var(--accent)' } : undefined}
                data-currency={option.currencyName}
              >
                {option.currencyName}
              </List.Item>
            ))}
          </List>
        </div>
      </Popup>
    </>
  );
}

/** A side of the exchange (from, to) and the balance available in its currency. */
function SideHeading({
  label,
  available,
  currencyName = '',
  testId,
}: {
  label: string;
  available: string;
  currencyName: string | undefined;
  testId?: string;
}) {
  return (
    <div className="row">
      <span className="muted">{label}</span>
      <span className="spacer" />
      <span className="muted" style={{ fontSize: 12 }} data-testid={testId}>
        {translate('exchange_available', [available, currencyName])}
      </span>
    </div>
  );
}

function SwapIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <path
        d="M7 4v15m0 0-3-3m3 3 3-3M17 20V5m0 0-3 3m3-3 3 3"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export default function ExchangePage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const book = useUser().user?.accountType;
  const demo = useDemoAccount();

  const balances = useQuery({
    queryKey: ['balances', book],
    queryFn: fetchBalances,
  });
  const currencies = useQuery({
    queryKey: ['platformCurrencies'],
    queryFn: loadPlatformCurrencies,
    initialData: () => getItem<PlatformCurrency[]>(STORAGE_KEY.platformCurrency),
    initialDataUpdatedAt: 0,
  });
  // Currencies the market prices: only those can be exchanged (no rate, no quote).
  const rates = useQuery({
    queryKey: ['exchangeInfo'],
    queryFn: () => api.call(quotesApi.exchangeInfo, undefined, { catchError: true }),
  });
  const options = useMemo(() => currencies.data ?? [], [currencies.data]);
  const priced = useMemo(() => {
    if (!rates.data) return () => true;
    const known = new Set(rates.data.filter((row) => row.rateToUsdt).map((row) => row.currencyId));
    return (id: number | undefined) => id !== undefined && known.has(id);
  }, [rates.data]);
  const byId = useMemo(
    () => new Map((balances.data ?? []).map((row) => [row.currencyId, row])),
    [balances.data],
  );
  const scaleOfCurrency = (id: number | undefined) =>
    options.find((option) => option.id === id)?.scale ?? getOtherValue().app_decimal_no;

  const defaultFrom = getOtherValue().default_trade_currency_id;
  const [fromChoice, setFrom] = useState<number>();
  const [toChoice, setTo] = useState<number>();
  const fromId =
    fromChoice ??
    (options.some((o) => o.id === defaultFrom) && priced(defaultFrom)
      ? defaultFrom
      : options.find((o) => priced(o.id))?.id);
  const toId = toChoice ?? options.find((o) => o.id !== fromId && priced(o.id))?.id;
  const from = options.find((option) => option.id === fromId);
  const to = options.find((option) => option.id === toId);
  const fromScale = scaleOfCurrency(fromId);
  const toScaleDigits = scaleOfCurrency(toId);
  const available = byId.get(fromId ?? 0)?.amount ?? '0';

  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [quote, setQuote] = useState<ActiveQuote>();
  const [quoting, setQuoting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const busy = useRef(false);
  const now = useNow(Boolean(quote && !quote.expired));
  const secondsLeft = quote ? Math.max(0, Math.ceil((quote.deadline - now) / 1000)) : 0;
  const expired = Boolean(quote && (quote.expired || secondsLeft === 0));

  const amountError = (() => {
    const typed = amount.trim();
    if (!typed) return translate('exchange_amountRequired');
    const parsed = parseDecimal(typed, { maxScale: fromScale });
    if (!parsed.ok) {
      if (parsed.problem === 'scale') return translate('exchange_amountScale', [fromScale]);
      if (parsed.problem === 'sign') return translate('exchange_amountPositive');
      return translate('exchange_amountFormat');
    }
    if (isDecimalString(available) && gt(parsed.value, available)) {
      return translate('exchange_insufficient', [from?.currencyName ?? '']);
    }
    return undefined;
  })();
  const sameCurrency = fromId !== undefined && fromId === toId;

  // Any change of what is asked makes the quote void.
  const reset = () => setQuote(undefined);

  function chooseShare(factor: string) {
    if (!isDecimalString(available) || isZero(available)) {
      setAmount('');
    } else {
      setAmount(normalize(toScale(mul(available, factor), fromScale, 'down')));
    }
    setTouched(true);
    reset();
  }

  async function requestQuote() {
    setTouched(true);
    if (busy.current || amountError || sameCurrency || !fromId || !toId) return;
    busy.current = true;
    setQuoting(true);
    try {
      const parsed = parseDecimal(amount.trim(), { maxScale: fromScale });
      if (!parsed.ok) return;
      const fresh = await api.call(walletApi.exchangeQuote, {
        fromCurrencyId: fromId,
        toCurrencyId: toId,
        amount: parsed.value,
      });
      const receivedAt = Date.now();
      setQuote({
        ...fresh,
        deadline: quoteDeadline(fresh.expiresAt, receivedAt),
        expired: false,
        requestId: newRequestId(),
      });
    } catch {
      // The request client has told the user.
    } finally {
      busy.current = false;
      setQuoting(false);
    }
  }

  async function confirm() {
    if (!quote || expired || busy.current) return;
    busy.current = true;
    setConfirming(true);
    try {
      await api.call(walletApi.exchange, {
        quoteId: quote.quoteId,
        requestId: quote.requestId,
      });
      showToast(
        translate('exchange_done', [
          money(quote.amount, fromScale),
          quote.fromCurrencyName,
          money(quote.receiveAmount, toScaleDigits),
          quote.toCurrencyName,
        ]),
      );
      setQuote(undefined);
      setAmount('');
      setTouched(false);
      void queryClient.invalidateQueries({ queryKey: ['balances'] });
      void queryClient.invalidateQueries({ queryKey: ['personCenterPanelData'] });
      void queryClient.invalidateQueries({ queryKey: ['convertRecords'] });
    } catch (error) {
      if (error instanceof ApiError && error.msg === QUOTE_EXPIRED) {
        setQuote((current) => current && { ...current, expired: true });
      }
    } finally {
      busy.current = false;
      setConfirming(false);
    }
  }

  const feePercent = quote ? percentText(quote.feeRate) : '';
  /**
   * The picker of a side: every currency with its balance, the unpriced disabled. Choosing the
   * other side's currency swaps the two.
   */
  const pickerOf = (side: 'from' | 'to') => {
    const [value, other, set, setOther] =
      side === 'from' ? [fromId, toId, setFrom, setTo] : [toId, fromId, setTo, setFrom];
    return {
      label: t(`exchange_${side}`),
      testId: `exchange-${side}`,
      value,
      options,
      balances: byId,
      scaleOfCurrency,
      priced,
      onChange: (id: number) => {
        if (id === other) setOther(value);
        set(id);
        reset();
      },
    };
  };
  return (
    <SignedInScreen
      testId="exchange-page"
      title={t('area_exchange')}
      right={<RecordsLink to="changeRecord" />}
    >
      <div className="page-body stack">
        {demo && (
          <div className="row" data-testid="exchange-demo">
            <DemoBadge />
            <span className="muted" style={{ fontSize: 13 }}>
              {t('exchange_demoNote')}
            </span>
          </div>
        )}

        <section className="card stack" style={{ gap: 10 }}>
          <SideHeading
            label={t('exchange_from')}
            available={money(available, fromScale)}
            currencyName={from?.currencyName}
            testId="exchange-available"
          />
          <Field
            label={t('exchange_amount')}
            htmlFor="exchange-amount"
            error={touched ? (sameCurrency ? t('exchange_sameCurrency') : amountError) : undefined}
          >
            <CurrencyPicker {...pickerOf('from')} />
            <Input
              id="exchange-amount"
              inputMode="decimal"
              autoComplete="off"
              maxLength={40}
              placeholder={t('exchange_amountPlaceholder')}
              value={amount}
              style={{ '--text-align': 'right' }}
              onChange={(value) => {
                setAmount(cleanAmount(value));
                reset();
              }}
            />
          </Field>
          <ShareButtons
            testId="exchange-share"
            onPick={chooseShare}
            text={(share) => (share === '1' ? t('exchange_max') : percentText(share))}
            className="row"
            style={{ gap: 6 }}
            buttonClassName="area-code-button"
            buttonStyle={{ flex: 1, padding: '6px 0', fontSize: 13 }}
          />

          <div className="row" style={{ justifyContent: 'center' }}>
            <button
              type="button"
              className="icon-button"
              aria-label={t('exchange_swap')}
              data-testid="exchange-swap"
              onClick={() => {
                setFrom(toId);
                setTo(fromId);
                setAmount('');
                setTouched(false);
                reset();
              }}
            >
              <SwapIcon />
            </button>
          </div>

          <SideHeading
            label={t('exchange_to')}
            available={money(byId.get(toId ?? 0)?.amount ?? '0', toScaleDigits)}
            currencyName={to?.currencyName}
          />
          <div className="field-control">
            <CurrencyPicker {...pickerOf('to')} />
            <span className="spacer" />
            <span
              className={quote ? undefined : 'muted'}
              style={{ fontVariantNumeric: 'tabular-nums', fontWeight: 600 }}
              data-testid="exchange-receive-preview"
            >
              {quote ? `≈ ${money(quote.receiveAmount, toScaleDigits)}` : '- -'}
            </span>
          </div>
        </section>

        {quote ? (
          <section
            className="card stack"
            style={{ gap: 0, padding: '8px 16px' }}
            data-testid="exchange-quote"
            data-expired={expired}
          >
            <QuoteLine
              label={t('exchange_rate')}
              value={`1 ${quote.fromCurrencyName} ≈ ${shortRate(quote.rate)} ${quote.toCurrencyName}`}
              testId="exchange-rate"
            />
            <QuoteLine
              label={`${t('exchange_fee')} (${feePercent})`}
              value={`${money(quote.fee, fromScale)} ${quote.fromCurrencyName}`}
              testId="exchange-fee"
            />
            <QuoteLine
              label={t('exchange_receive')}
              value={`${money(quote.receiveAmount, toScaleDigits)} ${quote.toCurrencyName}`}
              testId="exchange-receive"
              strong
            />
            <p
              role="status"
              style={{
                margin: '10px 0 6px',
                fontSize: 13,
                color: expired ? 'var(--danger)' : 'var(--accent)',
              }}
              data-testid="exchange-countdown"
            >
              {expired ? t('exchange_expired') : translate('exchange_validFor', [secondsLeft])}
            </p>
          </section>
        ) : null}

        {quote && !expired ? (
          <Button
            block
            size="large"
            color="primary"
            loading={confirming}
            disabled={confirming}
            onClick={() => void confirm()}
            data-testid="exchange-confirm"
          >
            {t('exchange_confirm')}
          </Button>
        ) : (
          <Button
            block
            size="large"
            color="primary"
            loading={quoting}
            disabled={quoting || options.length < 2}
            onClick={() => void requestQuote()}
            data-testid={quote ? 'exchange-refresh' : 'exchange-get-quote'}
          >
            {t(quote ? 'exchange_refresh' : 'exchange_getQuote')}
          </Button>
        )}
        <p className="muted" style={{ margin: 0, fontSize: 12, textAlign: 'center' }}>
          {translate('exchange_quoteNote', [EXCHANGE_QUOTE_TTL_MS / 1000])}
        </p>
      </div>
    </SignedInScreen>
  );
}

function QuoteLine({
  label,
  value,
  testId,
  strong = false,
}: {
  label: string;
  value: string;
  testId: string;
  strong?: boolean;
}) {
  return (
    <div
      className="row"
      style={{
        padding: '8px 0',
        borderBlockEnd: '1px solid var(--border)',
        alignItems: 'flex-start',
      }}
    >
      <span className="muted" style={{ flex: 'none' }}>
        {label}
      </span>
      <span className="spacer" />
      <span
        style={{
          textAlign: 'end',
          overflowWrap: 'anywhere',
          fontVariantNumeric: 'tabular-nums',
          fontWeight: strong ? 700 : 400,
          color: strong ? 'var(--accent)' : undefined,
        }}
        data-testid={testId}
      >
        {value}
      </span>
    </div>
  );
}
