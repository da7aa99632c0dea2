/**
 * Following a trader, or changing how (/pages/followOrder/follow?traderId=…[&relationId=…]): the
 * mode (a fixed margin per copied trade, or a ratio of the leader's margin), the amount or the
 * ratio, the most open copies, an optional own take-profit and stop-loss as percentages of a
 * copy's margin, and the budget the open copies' margin stays within. The preview shows what one
 * copied trade would take, sized by the shared `copyMargin` (the function the server sizes each
 * copy with) on the trader's latest position, with its opening fee at the fee table's rate; then a
 * confirm sheet with every figure. A follow has its own request id; a retry reuses it.
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Input } from 'antd-mobile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  COPY_LIMITS,
  COPY_MODE,
  div,
  followSettingsProblem,
  gt,
  lt,
  mul,
  normalize,
  parseDecimal,
  sub,
  type CopyMode,
} from '@bourse/shared';
import { loadFeeSettings } from '../../api/launch';
import { AmountField } from '../../components/amount-field';
import { BottomSheet } from '../../components/bottom-sheet';
import { ChoiceRow } from '../../components/choice-row';
import { DemoBadge, useDemoAccount } from '../../components/demo-account';
import { Field } from '../../components/field';
import { SheetButtons } from '../../components/sheet-buttons';
import { SignedInScreen } from '../../components/signed-in-screen';
import { ErrorState, ListSkeleton } from '../../components/status-views';
import { useSubmit } from '../../hooks/use-submit';
import { useUser } from '../../hooks/use-user';
import { useTranslation } from '../../i18n/react';
import { translate } from '../../i18n';
import { navigateTo } from '../../lib/navigation';
import { getItem, STORAGE_KEY } from '../../lib/storage';
import { showToast } from '../../lib/toast';
import { fetchBalance, tradeCurrencyId, useRequestId } from '../../lib/trade';
import {
  copyKeys,
  editRelation,
  follow,
  useLatestTraderPosition,
  useRelations,
  useTrader,
  type CopyRelation,
  type TraderDetail,
  type TraderPosition,
} from './api';
import { Avatar, Line, amountText, tradeScale, figureMessage } from './copy-parts';
import { contractFeeRate, copyPreview, fractionPercent, type CopyPreview } from './figures';
import type { FeeSetting } from '@bourse/shared';

/** The form as typed: amounts and percentages as text. */
interface Settings {
  mode: CopyMode;
  amount: string;
  ratio: string;
  maxOpen: string;
  tpPercent: string;
  slPercent: string;
  budget: string;
}

type Problems = Partial<Record<keyof Settings, string>>;

/** A percentage typed ("50") as the fraction the server takes ("0.5"); '' stays absent. */
function fractionOf(percent: string): string | undefined {
  const parsed = parseDecimal(percent.trim(), { sign: 'positive' });
  return parsed.ok ? normalize(div(parsed.value, '100', COPY_LIMITS.tpSlScale)) : undefined;
}

/** A fraction ("0.5") as the percentage the form shows ("50"). */
function percentOf(fraction: string | null): string {
  return fraction === null ? '' : normalize(mul(fraction, '100'));
}

function initialSettings(relation: CopyRelation | undefined, trader: TraderDetail): Settings {
  if (relation)
    return {
      mode: relation.mode === COPY_MODE.ratio ? COPY_MODE.ratio : COPY_MODE.fixed,
      amount: relation.amount ?? '',
      ratio: relation.ratio ?? '',
      maxOpen: String(relation.maxOpen),
      tpPercent: percentOf(relation.tpRate),
      slPercent: percentOf(relation.slRate),
      budget: relation.budget,
    };
  return {
    mode: COPY_MODE.fixed,
    amount: normalize(trader.minCopyAmount),
    ratio: '1',
    maxOpen: '5',
    tpPercent: '',
    slPercent: '',
    budget: '',
  };
}

/** What is wrong with each field, and the body to send when nothing is. */
function check(settings: Settings, trader: TraderDetail, scale: number) {
  const problems: Problems = {};
  const t = (key: string) => translate(key);
  const decimal = (text: string, field: keyof Settings, maxScale: number) => {
    if (!text.trim()) {
      problems[field] = t('copy_required');
      return undefined;
    }
    const parsed = parseDecimal(text.trim(), { sign: 'positive', maxScale });
    if (!parsed.ok) {
      problems[field] =
        parsed.problem === 'scale'
          ? figureMessage(t('copy_decimals'), [maxScale])
          : t('copy_invalidNumber');
      return undefined;
    }
    return parsed.value;
  };
  const amount =
    settings.mode === COPY_MODE.fixed ? decimal(settings.amount, 'amount', scale) : undefined;
  const ratio =
    settings.mode === COPY_MODE.ratio
      ? decimal(settings.ratio, 'ratio', COPY_LIMITS.ratioScale)
      : undefined;
  if (ratio !== undefined && (lt(ratio, COPY_LIMITS.ratioMin) || gt(ratio, COPY_LIMITS.ratioMax))) {
    problems.ratio = figureMessage(t('copy_ratioRange'), [
      COPY_LIMITS.ratioMin,
      COPY_LIMITS.ratioMax,
    ]);
  }
  const budget = decimal(settings.budget, 'budget', scale);
  const maxOpen = Number(settings.maxOpen);
  if (!/^[1-9][0-9]*$/.test(settings.maxOpen) || maxOpen > COPY_LIMITS.maxOpenMax)
    problems.maxOpen = figureMessage(t('copy_maxOpenRange'), [COPY_LIMITS.maxOpenMax]);
  const percent = (text: string, field: 'tpPercent' | 'slPercent', most: string) => {
    if (!text.trim()) return undefined;
    const parsed = parseDecimal(text.trim(), { sign: 'positive', maxScale: 2 });
    if (!parsed.ok || gt(parsed.value, mul(most, '100'))) {
      problems[field] = figureMessage(t('copy_percentRange'), [normalize(mul(most, '100'))]);
      return undefined;
    }
    return fractionOf(parsed.value);
  };
  const tpRate = percent(settings.tpPercent, 'tpPercent', COPY_LIMITS.tpMax);
  const slRate = percent(settings.slPercent, 'slPercent', COPY_LIMITS.slMax);
  if (budget !== undefined && !problems.amount && !problems.ratio) {
    const rule = followSettingsProblem({
      mode: settings.mode,
      amount,
      budget,
      minCopyAmount: trader.minCopyAmount,
      maxCopyAmount: trader.maxCopyAmount,
    });
    if (rule === 'hint_copyAmountRange') problems.amount = t(rule);
    else if (rule) problems.budget = t(rule);
  }
  const ok = Object.keys(problems).length === 0 && budget !== undefined;
  return {
    problems,
    body: ok
      ? {
          mode: settings.mode,
          amount,
          ratio,
          maxOpen,
          tpRate,
          slRate,
          budget: budget!,
        }
      : undefined,
  };
}

/** The preview of one copied trade. */
function PreviewLines({
  preview,
  example,
  currency,
  scale,
  prefix,
}: {
  preview: CopyPreview;
  example: TraderPosition | null;
  currency: string;
  scale: number;
  prefix: string;
}) {
  const { t } = useTranslation();
  if (!preview)
    return (
      <p className="ct-note" data-testid={`${prefix}-none`}>
        {t('copy_previewNoExample')}
      </p>
    );
  if (!preview.ok)
    return (
      <p className="ct-warning" data-testid={`${prefix}-refused`}>
        {t(preview.hint)}
      </p>
    );
  return (
    <>
      {example && (
        <Line
          label={t('copy_previewExample')}
          value={`${example.productCode} ${example.leverage}x · ${amountText(example.margin, currency, scale)}`}
          testId={`${prefix}-example`}
        />
      )}
      <Line
        label={t('copy_previewMargin')}
        value={amountText(preview.margin, currency, scale)}
        testId={`${prefix}-margin`}
        strong
      />
      {preview.fee !== null && (
        <Line
          label={t('copy_previewFee')}
          value={amountText(preview.fee, currency, scale)}
          testId={`${prefix}-fee`}
        />
      )}
      {preview.total !== null && (
        <Line
          label={t('copy_previewTotal')}
          value={amountText(preview.total, currency, scale)}
          testId={`${prefix}-total`}
          strong
        />
      )}
      {preview.cappedBy && (
        <p className="ct-warning" data-testid={`${prefix}-capped`}>
          {figureMessage(
            t(preview.cappedBy === 'budget' ? 'copy_cappedBudget' : 'copy_cappedBalance'),
            [amountText(preview.wanted, currency, scale)],
          )}
        </p>
      )}
    </>
  );
}

function FollowForm({
  trader,
  relation,
}: {
  trader: TraderDetail;
  relation: CopyRelation | undefined;
}) {
  const { t } = useTranslation();
  const demo = useDemoAccount();
  const { user } = useUser();
  const queryClient = useQueryClient();
  const scale = relation?.scale ?? tradeScale();
  const currency = relation?.currency ?? trader.currency;
  const [settings, setSettings] = useState(() => initialSettings(relation, trader));
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const request = useRequestId('copy');
  const set = (patch: Partial<Settings>) => setSettings((current) => ({ ...current, ...patch }));

  const currencyId = tradeCurrencyId();
  const balance = useQuery({
    queryKey: ['userBalance', currencyId, user?.accountType],
    queryFn: () => fetchBalance(currencyId),
  });
  const fees = useQuery({
    queryKey: ['orderFeeSetting'],
    queryFn: loadFeeSettings,
    initialData: () => getItem<FeeSetting[]>(STORAGE_KEY.feeSettings),
    initialDataUpdatedAt: 0,
    staleTime: 60_000,
  });
  const latest = useLatestTraderPosition(trader.traderId);
  const example = latest.data ?? null;
  const available = balance.data?.amount;

  const { problems, body } = check(settings, trader, scale);
  // The budget left for a new copy: the whole budget, less what the open copies use (editing).
  const budgetLeft =
    body === undefined
      ? undefined
      : relation
        ? sub(body.budget, relation.marginInUse)
        : body.budget;
  const preview =
    body === undefined || budgetLeft === undefined
      ? undefined
      : copyPreview({
          mode: body.mode,
          amount: body.amount,
          ratio: body.ratio,
          budgetLeft,
          available,
          leader: example,
          feeRate: example
            ? contractFeeRate(fees.data, example.productType, example.orderDirection)
            : '0',
          scale,
        });
  const shown = (field: keyof Settings) => (touched ? problems[field] : undefined);

  const place = useSubmit(async () => {
    if (!body) return;
    let saved: CopyRelation;
    if (relation) {
      saved = await editRelation({ relationId: relation.id, ...body });
      showToast(t('copy_saved'));
    } else {
      saved = await follow({
        traderId: trader.traderId,
        ...body,
        requestId: request.idFor(`follow:${trader.traderId}:${JSON.stringify(body)}`),
      });
      showToast(t('copy_followed'));
    }
    request.reset();
    setConfirming(false);
    void queryClient.invalidateQueries({ queryKey: copyKeys.relations });
    void queryClient.invalidateQueries({ queryKey: copyKeys.traders });
    navigateTo('copyMine', { relationId: saved.id });
  });

  const modeOptions: readonly CopyMode[] = [COPY_MODE.fixed, COPY_MODE.ratio];
  const amountLimits =
    trader.maxCopyAmount === null
      ? figureMessage(t('copy_fromAmount'), [amountText(trader.minCopyAmount, currency, scale)])
      : `${amountText(trader.minCopyAmount, currency, scale)} – ${amountText(trader.maxCopyAmount, currency, scale)}`;

  return (
    <div className="stack ct-form" data-testid="copy-follow-form">
      <section className="card stack">
        <div className="ct-card-head">
          <Avatar name={trader.nickName} src={trader.avatar} />
          <div className="ct-names">
            <strong className="ct-name">{trader.nickName}</strong>
            <span className="ct-title">
              {figureMessage(t('copy_shareRateText'), [fractionPercent(trader.profitShareRate)])}
            </span>
          </div>
          {demo && <DemoBadge />}
        </div>
        <Line label={t('copy_copyAmounts')} value={amountLimits} />
        <Line
          label={t('copy_available')}
          value={available === undefined ? '- -' : amountText(available, currency, scale)}
          testId="copy-available"
        />
        {relation && (
          <Line
            label={t('copy_marginInUse')}
            value={amountText(relation.marginInUse, currency, scale)}
          />
        )}
      </section>
      <section className="card stack">
        <ChoiceRow
          className="segmented ct-modes"
          label={t('copy_mode')}
          options={modeOptions}
          value={settings.mode}
          onChange={(mode) => set({ mode })}
          text={(mode) => t(mode === COPY_MODE.fixed ? 'copy_modeFixed' : 'copy_modeRatio')}
          testId="copy-mode"
        />
        <p className="ct-note">
          {t(settings.mode === COPY_MODE.fixed ? 'copy_modeFixedNote' : 'copy_modeRatioNote')}
        </p>
        {settings.mode === COPY_MODE.fixed ? (
          <AmountField
            label={t('copy_amount')}
            id="copy-amount"
            value={settings.amount}
            error={shown('amount')}
            onChange={(amount) => set({ amount })}
          >
            <span className="ct-unit">{currency}</span>
          </AmountField>
        ) : (
          <AmountField
            label={t('copy_ratio')}
            id="copy-ratio"
            value={settings.ratio}
            error={shown('ratio')}
            onChange={(ratio) => set({ ratio })}
          >
            <span className="ct-unit">×</span>
          </AmountField>
        )}
        <AmountField
          label={t('copy_budget')}
          id="copy-budget"
          value={settings.budget}
          error={shown('budget')}
          onChange={(budget) => set({ budget })}
        >
          <span className="ct-unit">{currency}</span>
        </AmountField>
        <p className="ct-note">{t('copy_budgetNote')}</p>
        <Field label={t('copy_maxOpen')} htmlFor="copy-max-open" error={shown('maxOpen')}>
          <Input
            id="copy-max-open"
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            value={settings.maxOpen}
            onChange={(value) => set({ maxOpen: value.replace(/[^0-9]/g, '') })}
          />
        </Field>
        <AmountField
          label={t('copy_tpPercent')}
          id="copy-tp"
          placeholder={t('copy_optional')}
          value={settings.tpPercent}
          error={shown('tpPercent')}
          onChange={(tpPercent) => set({ tpPercent })}
        >
          <span className="ct-unit">%</span>
        </AmountField>
        <AmountField
          label={t('copy_slPercent')}
          id="copy-sl"
          placeholder={t('copy_optional')}
          value={settings.slPercent}
          error={shown('slPercent')}
          onChange={(slPercent) => set({ slPercent })}
        >
          <span className="ct-unit">%</span>
        </AmountField>
        <p className="ct-note">{t('copy_tpSlNote')}</p>
      </section>
      <section className="card stack ct-preview" data-testid="copy-preview">
        <h2 className="section-title ct-section-title">{t('copy_previewTitle')}</h2>
        {body ? (
          <PreviewLines
            preview={preview}
            example={example}
            currency={currency}
            scale={scale}
            prefix="copy-preview"
          />
        ) : (
          <p className="ct-note">{t('copy_previewFill')}</p>
        )}
        <p className="ct-note">{t('copy_previewNote')}</p>
      </section>
      <Button
        block
        color="primary"
        data-testid="copy-follow-button"
        onClick={() => {
          setTouched(true);
          if (body) setConfirming(true);
        }}
      >
        {t(relation ? 'copy_saveSettings' : 'copy_follow')}
      </Button>
      <BottomSheet
        visible={confirming && body !== undefined}
        onClose={() => setConfirming(false)}
        onMaskClick={() => !place.pending && setConfirming(false)}
        destroyOnClose
        bodyClassName="trade-sheet"
      >
        {body && (
          <div className="stack" data-testid="copy-confirm">
            <h2 className="sheet-title">
              {t(relation ? 'copy_confirmEdit' : 'copy_confirmFollow')}
            </h2>
            <div className="ct-terms">
              <Line label={t('copy_trader')} value={trader.nickName} number={false} />
              <Line
                label={t('copy_mode')}
                value={t(body.mode === COPY_MODE.fixed ? 'copy_modeFixed' : 'copy_modeRatio')}
                number={false}
              />
              {body.mode === COPY_MODE.fixed ? (
                <Line
                  label={t('copy_amount')}
                  value={amountText(body.amount, currency, scale)}
                  testId="copy-confirm-amount"
                />
              ) : (
                <Line
                  label={t('copy_ratio')}
                  value={`× ${body.ratio}`}
                  testId="copy-confirm-ratio"
                />
              )}
              <Line
                label={t('copy_budget')}
                value={amountText(body.budget, currency, scale)}
                testId="copy-confirm-budget"
              />
              <Line label={t('copy_maxOpen')} value={String(body.maxOpen)} />
              <Line
                label={t('copy_tpPercent')}
                value={body.tpRate ? fractionPercent(body.tpRate) : t('copy_none')}
                number={body.tpRate !== undefined}
              />
              <Line
                label={t('copy_slPercent')}
                value={body.slRate ? fractionPercent(body.slRate) : t('copy_none')}
                number={body.slRate !== undefined}
              />
              <Line
                label={t('copy_shareRate')}
                value={fractionPercent(trader.profitShareRate)}
                testId="copy-confirm-rate"
              />
              <PreviewLines
                preview={preview}
                example={example}
                currency={currency}
                scale={scale}
                prefix="copy-confirm"
              />
            </div>
            <p className="ct-note">{t('copy_confirmNote')}</p>
            <SheetButtons
              pending={place.pending}
              onCancel={() => setConfirming(false)}
              label={t('copy_confirm')}
              testId="copy-confirm-button"
              onConfirm={() => void place.submit()}
            />
          </div>
        )}
      </BottomSheet>
    </div>
  );
}

export default function FollowPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const traderId = Number(search.get('traderId'));
  const relationId = Number(search.get('relationId')) || undefined;
  const trader = useTrader(traderId, true);
  const relations = useRelations(relationId !== undefined);
  const relation = relations.data?.find((row) => row.id === relationId);
  const loading = trader.isPending || (relationId !== undefined && relations.isPending);
  return (
    <SignedInScreen
      testId="copy-follow-page"
      title={t(relationId ? 'copy_editSettings' : 'copy_followTitle')}
    >
      {loading ? (
        <ListSkeleton rows={4} />
      ) : trader.isError || relations.isError || !trader.data ? (
        <ErrorState
          onRetry={() => {
            void trader.refetch();
            void relations.refetch();
          }}
        />
      ) : (
        <FollowForm key={relation?.id ?? 'new'} trader={trader.data} relation={relation} />
      )}
    </SignedInScreen>
  );
}
