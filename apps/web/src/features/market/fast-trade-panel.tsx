/**
 * The fast-trade panel of the quote detail (PRODUCT section 6, position type 0): up or down, an
 * option (time and payout), a stake within the option's limits and the available balance of the
 * trade currency, with the fee and what a win or a loss brings shown before confirming (the
 * server's arithmetic, on decimal strings). The risk disclosure is accepted once before the first
 * trade. After placing, the countdown opens and ends with the result and its evidence; the
 * user's recent fast trades are listed under the panel. Signed-out visitors are invited to sign
 * in; without the operator's switch, or for products without fast trades, there is no panel.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import {
  ACCOUNT_TYPE,
  ORDER_DIRECTION,
  gt,
  largestFastTradeStake,
  lt,
  mul,
  normalize,
  parseDecimal,
  scaleOf,
  type FastTradeOption,
  type FastTradeOrder,
  type ProductType,
} from '@bourse/shared';
import { ApiError, showToast, unhandledMessage } from '../../api';
import { storedTip } from '../../api/launch';
import { isSignedIn } from '../../api/session';
import { AmountField } from '../../components/amount-field';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PreviewLine } from '../../components/preview-line';
import { ShareButtons } from '../../components/share-buttons';
import { useSubmit } from '../../hooks/use-submit';
import { useUser } from '../../hooks/use-user';
import { translate } from '../../i18n';
import { navigateTo } from '../../lib/navigation';
import {
  currencyScale,
  fetchBalance,
  money,
  percentText,
  tradeCurrencyId,
  useRequestId,
} from '../../lib/trade';
import {
  FAST_TRADES_KEY,
  acceptRisk,
  durationText,
  feeRateOf,
  fetchFastTradeOptions,
  fetchRiskAccepted,
  placeFastTrade,
  previewOf,
} from './fast-trade-api';
import { FastTradeCountdownPopup } from './fast-trade-countdown';
import { FastTradeList } from './fast-trade-list';

function chipStyle(selected: boolean, color = 'var(--accent)'): React.CSSProperties {
  return {
    flex: 1,
    minWidth: 0,
    padding: '8px 6px',
    borderRadius: 10,
    border: `1px solid ${selected ? color : 'var(--border)'}`,
    background: selected ? 'var(--surface-raised)' : 'transparent',
    color: selected ? color : 'var(--text)',
    font: 'inherit',
    cursor: 'pointer',
  };
}

function SignInPrompt() {
  const { t } = useTranslation();
  return (
    <section
      className="card stack"
      style={{ margin: '0 16px 16px', gap: 10 }}
      data-testid="fast-sign-in"
    >
      <strong style={{ fontSize: 15 }}>{t('fast_title')}</strong>
      <span className="muted" style={{ fontSize: 13, lineHeight: 1.5 }}>
        {t('fast_signIn')}
      </span>
      <Button color="primary" onClick={() => navigateTo('login')} data-testid="fast-sign-in-button">
        {t('account_login')}
      </Button>
    </section>
  );
}

/** The risk disclosure text: the operator's tip when shown, else the bundled one. */
function riskText(): string {
  const tip = storedTip('fastTradeRisk');
  return tip.isShow !== 0 && tip.content ? tip.content : translate('tip_fastTradeRisk');
}

/** Up (1) or down (2). */
type Direction = (typeof ORDER_DIRECTION)[keyof typeof ORDER_DIRECTION];

function TradeForm({
  productType,
  productCode,
  options,
  demo,
  book,
}: {
  productType: ProductType;
  productCode: string;
  options: FastTradeOption[];
  demo: boolean;
  book: number | undefined;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [direction, setDirection] = useState<Direction>(ORDER_DIRECTION.up);
  const [optionId, setOptionId] = useState<number | undefined>();
  const option = options.find((candidate) => candidate.id === optionId) ?? options[0]!;
  const [stake, setStake] = useState('');
  const [touched, setTouched] = useState(false);
  const [riskOpen, setRiskOpen] = useState(false);
  const [watching, setWatching] = useState<FastTradeOrder | undefined>();

  const currencyId = option.currencyId ?? tradeCurrencyId();
  const currencyName = option.currencyName;
  const scale = currencyScale(currencyId) ?? Math.max(scaleOf(option.minStake), 2);

  const balance = useQuery({
    queryKey: ['userBalance', currencyId, book],
    queryFn: () => fetchBalance(currencyId),
  });
  const risk = useQuery({ queryKey: ['fastTradeRisk', book], queryFn: fetchRiskAccepted });
  const available = balance.data?.amount;

  const parsed = parseDecimal(stake, { maxScale: scale });
  const preview = parsed.ok ? previewOf(parsed.value, option, direction, scale) : undefined;

  function stakeProblem(): string | undefined {
    if (!stake) return t('fast_stakeRequired');
    if (!parsed.ok) {
      return parsed.problem === 'scale'
        ? translate('hint_amountDecimals', [scale, currencyName])
        : t('fast_stakeInvalid');
    }
    if (lt(parsed.value, option.minStake))
      return translate('hint_amountBelowMin', [money(option.minStake, scale), currencyName]);
    if (gt(parsed.value, option.maxStake))
      return translate('hint_amountAboveMax', [money(option.maxStake, scale), currencyName]);
    if (available !== undefined && preview && gt(preview.total, available))
      return translate('hint_insufficientBalance');
    return undefined;
  }
  const stakeError = stakeProblem();

  /** A share of the available balance that still pays its fee, within the option's maximum. */
  function shortcut(share: string) {
    if (available === undefined) return;
    setStake(
      normalize(
        largestFastTradeStake(
          mul(available, share),
          feeRateOf(option, direction),
          option.maxStake,
          scale,
        ),
      ),
    );
    setTouched(true);
  }

  // One request id per form fill: a retry of the same order reuses it, a new order gets a new one.
  const fill = `${option.id}|${direction}|${parsed.ok ? parsed.value : stake}`;
  const request = useRequestId('ft');

  const place = useSubmit(async () => {
    if (!parsed.ok) return;
    try {
      const order = await placeFastTrade({
        productType,
        productCode,
        optionId: option.id,
        orderDirection: direction,
        amount: parsed.value,
        requestId: request.idFor(fill),
      });
      request.reset();
      setWatching(order);
      void queryClient.invalidateQueries({ queryKey: [FAST_TRADES_KEY, 'list'] });
      void queryClient.invalidateQueries({ queryKey: ['userBalance'] });
    } catch (error) {
      const message = unhandledMessage(error);
      if (message) showToast(message);
      if (error instanceof ApiError && error.msg === 'hint_fastTradeRiskRequired')
        queryClient.setQueryData(['fastTradeRisk', book], false);
      void queryClient.invalidateQueries({ queryKey: ['userBalance'] });
      throw error;
    }
  });

  const accept = useSubmit(async () => {
    try {
      await acceptRisk();
    } catch (error) {
      const message = unhandledMessage(error);
      if (message) showToast(message);
      throw error;
    }
    queryClient.setQueryData(['fastTradeRisk', book], true);
    setRiskOpen(false);
    await place.submit();
  });

  function confirm() {
    setTouched(true);
    if (stakeError || risk.data === undefined) return;
    if (!risk.data) {
      setRiskOpen(true);
      return;
    }
    void place.submit();
  }

  const up = direction === ORDER_DIRECTION.up;
  const showError = stake || touched ? stakeError : undefined;
  return (
    <>
      <section
        className="card stack"
        style={{ margin: '0 16px 12px', gap: 12 }}
        aria-label={t('fast_title')}
        data-testid="fast-trade-panel"
      >
        <div className="row">
          <strong style={{ fontSize: 16 }}>{t('fast_title')}</strong>
          {demo && (
            <span className="badge-demo" data-testid="fast-demo-badge">
              {t('account_demoBadge')}
            </span>
          )}
        </div>
        <span className="muted" style={{ fontSize: 12, lineHeight: 1.5 }}>
          {t('fast_rule')}
        </span>

        <div className="row" role="group" aria-label={t('fast_direction')} style={{ gap: 8 }}>
          {[ORDER_DIRECTION.up, ORDER_DIRECTION.down].map((value) => {
            const isUp = value === ORDER_DIRECTION.up;
            const selected = value === direction;
            const color = isUp ? 'var(--success)' : 'var(--danger)';
            return (
              <button
                key={value}
                type="button"
                aria-pressed={selected}
                data-testid={isUp ? 'fast-direction-up' : 'fast-direction-down'}
                onClick={() => setDirection(value)}
                style={{
                  ...chipStyle(selected, color),
                  padding: '10px 6px',
                  fontWeight: 700,
                  fontSize: 15,
                  background: selected ? color : 'transparent',
                  color: selected ? '#121218' : color,
                  borderColor: color,
                }}
              >
                {isUp ? '▲ ' : '▼ '}
                {t(isUp ? 'fast_up' : 'fast_down')}
              </button>
            );
          })}
        </div>

        <div className="stack" style={{ gap: 6 }}>
          <span className="muted" style={{ fontSize: 13 }}>
            {t('fast_option')}
          </span>
          <div className="row" role="group" aria-label={t('fast_option')} style={{ gap: 8 }}>
            {options.map((candidate) => {
              const selected = candidate.id === option.id;
              return (
                <button
                  key={candidate.id}
                  type="button"
                  aria-pressed={selected}
                  data-testid={`fast-option-${candidate.durationSeconds}`}
                  onClick={() => setOptionId(candidate.id)}
                  style={chipStyle(selected)}
                >
                  <span className="stack" style={{ gap: 2, alignItems: 'center' }}>
                    <strong style={{ fontSize: 14 }}>
                      {durationText(candidate.durationSeconds)}
                    </strong>
                    <span
                      style={{
                        fontSize: 12,
                        color: selected ? 'var(--accent)' : 'var(--text-muted)',
                      }}
                    >
                      {translate('fast_payoutRate', [percentText(candidate.payoutRate)])}
                    </span>
                  </span>
                </button>
              );
            })}
          </div>
        </div>

        <AmountField
          label={t('fast_stake')}
          id="fast-stake"
          error={showError}
          placeholder={translate('fast_stakeRange', [
            money(option.minStake, scale),
            money(option.maxStake, scale),
          ])}
          value={stake}
          onChange={setStake}
          onBlur={() => setTouched(true)}
        >
          <span className="muted">{currencyName}</span>
        </AmountField>
        <ShareButtons
          className="row"
          style={{ gap: 6 }}
          buttonStyle={{ ...chipStyle(false), padding: '4px 0', fontSize: 12 }}
          disabled={available === undefined}
          onPick={shortcut}
          testId="fast-share"
        />

        <div className="stack" style={{ gap: 6 }}>
          <PreviewLine label={t('fast_available')} testId="fast-available">
            {available === undefined ? '- -' : `${money(available, scale)} ${currencyName}`}
          </PreviewLine>
          <PreviewLine label={t('fast_fee')} testId="fast-fee">
            {preview ? `${money(preview.fee, scale)} ${currencyName}` : '- -'}
          </PreviewLine>
          <PreviewLine label={t('fast_total')} testId="fast-total">
            {preview ? `${money(preview.total, scale)} ${currencyName}` : '- -'}
          </PreviewLine>
          <PreviewLine label={t('fast_ifWin')} testId="fast-if-win" strong>
            <span className="up">
              {preview
                ? `${money(preview.payout, scale)} ${currencyName} (+${money(preview.profit, scale)})`
                : '- -'}
            </span>
          </PreviewLine>
          <PreviewLine label={t('fast_ifLose')} testId="fast-if-lose">
            <span className="down">
              {preview ? `-${money(preview.loss, scale)} ${currencyName}` : '- -'}
            </span>
          </PreviewLine>
        </div>

        <Button
          block
          size="large"
          color={up ? 'success' : 'danger'}
          loading={place.pending || accept.pending}
          disabled={place.pending || accept.pending || risk.data === undefined}
          onClick={confirm}
          data-testid="fast-confirm"
        >
          {t(up ? 'fast_confirmUp' : 'fast_confirmDown')} · {durationText(option.durationSeconds)}
        </Button>
      </section>

      <FastTradeList book={book} onOpen={setWatching} />

      <ConfirmDialog
        visible={riskOpen}
        title={t('fast_riskTitle')}
        content={
          <div data-testid="fast-risk-dialog" style={{ lineHeight: 1.6 }}>
            {riskText()}
          </div>
        }
        pending={accept.pending}
        onClose={() => setRiskOpen(false)}
        onConfirm={() => void accept.submit()}
        confirmText={t('fast_riskAccept')}
      />

      <FastTradeCountdownPopup order={watching} onClose={() => setWatching(undefined)} />
    </>
  );
}

/**
 * The panel when the product offers fast trades (its position types include 0) and the operator
 * has them on; a sign-in invitation for visitors.
 */
export function FastTradePanel({
  productType,
  productCode,
  positionTypes,
}: {
  productType: ProductType;
  productCode: string;
  positionTypes: readonly number[] | undefined;
}) {
  const { user } = useUser();
  const signedIn = isSignedIn();
  const offered = positionTypes?.includes(0) ?? false;
  const options = useQuery({
    queryKey: ['fastTradeOptions', productType, productCode],
    queryFn: () => fetchFastTradeOptions(productType, productCode),
    enabled: offered,
    retry: false,
  });
  if (!offered || !options.data || options.data.length === 0) return null;
  if (!signedIn) return <SignInPrompt />;
  const book = user?.accountType;
  return (
    <TradeForm
      // A fresh form for another product or account.
      key={`${productType}:${productCode}:${book}`}
      productType={productType}
      productCode={productCode}
      options={options.data}
      demo={book === ACCOUNT_TYPE.demo}
      book={book}
    />
  );
}
