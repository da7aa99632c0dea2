/** The pieces the order forms and the position screens share. */
import { Fragment, useState } from 'react';
import { Button } from 'antd-mobile';
import { useLocation } from 'react-router';
import { useTranslation } from '../../i18n/react';
import {
  ORDER_DIRECTION,
  cmp,
  parseDecimal,
  tpSlProblems,
  type TickEvidence,
} from '@bourse/shared';
import { AmountField } from '../../components/amount-field';
import { ChoiceRow, type ChoiceRowProps } from '../../components/choice-row';
import { EvidenceTicks } from '../../components/evidence-ticks';
import {
  TickCard as EvidenceCard,
  type LineProps,
  type TickCardLook,
  type TickCardProps,
} from '../../components/tick-card';
import type { PagedRows } from '../../hooks/use-paged-rows';
import { translate } from '../../i18n';
import { navigateTo } from '../../lib/navigation';
import { signedMoney, tickTime } from '../../lib/trade';
import { priceText, returnRate, tradeScale } from './trading-api';

/** A line of a preview or a card: label at the start, value at the end. */
export function Line({
  label,
  children,
  testId,
  strong = false,
}: LineProps & { strong?: boolean }) {
  return (
    <div className={`trade-line${strong ? ' trade-line-strong' : ''}`}>
      <span className="muted">{label}</span>
      {/* Figures keep their own direction in right-to-left text (the sign before the digits). */}
      <span dir="ltr" data-testid={testId}>
        {children}
      </span>
    </div>
  );
}

/** A row of choices of a form, one pressed. */
export function Choices<T extends string | number>(
  props: Omit<ChoiceRowProps<T>, 'className' | 'tabs' | 'as'> & { label: string; testId: string },
) {
  return <ChoiceRow {...props} className="trade-choices" />;
}

/** Buy / sell (long / short): the two big coloured buttons. */
export function Sides({
  value,
  onChange,
  labels,
  testId,
}: {
  value: number;
  onChange: (value: number) => void;
  /** Translation keys of the buy (long) and sell (short) sides. */
  labels: readonly [string, string];
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="trade-sides" role="group" aria-label={t('trade_side')}>
      {[ORDER_DIRECTION.up, ORDER_DIRECTION.down].map((side) => (
        <button
          key={side}
          type="button"
          className={side === ORDER_DIRECTION.up ? 'trade-side-buy' : 'trade-side-sell'}
          aria-pressed={value === side}
          data-testid={`${testId}-${side === ORDER_DIRECTION.up ? 'buy' : 'sell'}`}
          onClick={() => onChange(side)}
        >
          {t(labels[side === ORDER_DIRECTION.up ? 0 : 1])}
        </button>
      ))}
    </div>
  );
}

const TICK_CARD_LOOK: TickCardLook = {
  Line,
  className: 'tick-card',
  price: priceText,
  time: tickTime,
};

/** A tick as evidence: price, time to the millisecond (with the day), source and sequence number. */
export function TickCard(props: Omit<TickCardProps, 'look'>) {
  return <EvidenceCard {...props} look={TICK_CARD_LOOK} />;
}

/** The entry and exit ticks of a closed position, as evidence. */
export function EntryExitTicks({
  position,
  priceScale,
}: {
  position: { id: number; entry: TickEvidence | null; exit: TickEvidence | null };
  priceScale: number;
}) {
  const { t } = useTranslation();
  return (
    <EvidenceTicks
      trade={position}
      titles={{ entry: t('position_entryTick'), exit: t('position_exitTick') }}
      testId={(side) => `position-${position.id}-${side}-tick`}
      priceScale={priceScale}
      look={TICK_CARD_LOOK}
    />
  );
}

/** The foot of a card or an order row: a time at the start, its buttons at the end. */
export function CardFoot({ time, children }: { time: string; children: React.ReactNode }) {
  return (
    <div className="row" style={{ gap: 8 }}>
      <SmallNote>{time}</SmallNote>
      <span className="spacer" />
      {children}
    </div>
  );
}

/** Small muted text of a card: a time, a product's code. */
function SmallNote({ children }: { children: React.ReactNode }) {
  return (
    <span className="muted" style={{ fontSize: 12 }}>
      {children}
    </span>
  );
}

/** Loads the next page of a list, while there is one. */
export function MoreButton({ list, block }: { list: PagedRows<unknown>; block?: boolean }) {
  const { t } = useTranslation();
  if (!list.hasMore) return null;
  return (
    <Button block={block} fill="none" loading={list.loadingMore} onClick={list.loadMore}>
      {t('position_more')}
    </Button>
  );
}

/** "Evidence": shows or hides the ticks of a closed position or a filled order. */
export function EvidenceToggle({
  open,
  onToggle,
  testId,
}: {
  open: boolean;
  onToggle: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="link"
      style={{ fontSize: 13 }}
      aria-expanded={open}
      data-testid={testId}
      onClick={onToggle}
    >
      {t('position_evidence')}
    </button>
  );
}

/** The two levels that close a contract by themselves. */
export type Level = 'takeProfit' | 'stopLoss';
export const LEVELS: readonly Level[] = ['takeProfit', 'stopLoss'];
export const LEVEL_LABEL: Record<Level, string> = {
  takeProfit: 'trade_takeProfit',
  stopLoss: 'trade_stopLoss',
};

/**
 * Take-profit and stop-loss as typed (from `initial`), each parsed, with what is wrong with it:
 * not a price, or against the server's rules (checked when there is a price to check them against).
 */
export function useTpSl(
  initial: Record<Level, string>,
  against:
    | { direction: number; reference: string; liquidation: string | undefined; priceScale: number }
    | undefined,
) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState(initial);
  const parsed = {
    takeProfit: parseDecimal(typed.takeProfit),
    stopLoss: parseDecimal(typed.stopLoss),
  };
  const value = (level: Level) => (parsed[level].ok ? parsed[level].value : undefined);
  const problems = against
    ? tpSlProblems(
        against.direction,
        against.reference,
        value('takeProfit'),
        value('stopLoss'),
        against.liquidation,
        against.priceScale,
      )
    : {};
  function error(level: Level): string | undefined {
    const problem = problems[level];
    const text =
      typed[level] && !parsed[level].ok
        ? t('trade_priceInvalid')
        : problem && translate(problem.key, problem.params);
    return text || undefined;
  }
  return {
    typed,
    set: (level: Level, text: string) => setTyped((state) => ({ ...state, [level]: text })),
    clear: () => setTyped({ takeProfit: '', stopLoss: '' }),
    takeProfit: value('takeProfit'),
    stopLoss: value('stopLoss'),
    errors: { takeProfit: error('takeProfit'), stopLoss: error('stopLoss') },
  };
}

export type TpSl = ReturnType<typeof useTpSl>;

/** The take-profit and stop-loss fields, each followed by its `note` where one is given. */
export function LevelFields({
  levels,
  ids,
  placeholder,
  clearable,
  note,
}: {
  levels: TpSl;
  /** Of the take-profit and the stop-loss field. */
  ids: Record<Level, string>;
  placeholder: string;
  clearable?: boolean;
  note?: (level: Level, id: string) => React.ReactNode;
}) {
  const { t } = useTranslation();
  return LEVELS.map((level) => (
    <Fragment key={level}>
      <AmountField
        label={t(LEVEL_LABEL[level])}
        id={ids[level]}
        error={levels.errors[level]}
        placeholder={placeholder}
        value={levels.typed[level]}
        clearable={clearable}
        onChange={(text) => levels.set(level, text)}
      />
      {note?.(level, ids[level])}
    </Fragment>
  ));
}

/** The class of a result by its sign: up, down, or none for zero or nothing. */
export function signClass(value: string | null | undefined): string {
  if (!value) return '';
  const sign = cmp(value, '0');
  return sign > 0 ? 'up' : sign < 0 ? 'down' : '';
}

/**
 * A card of a position or of what is held: its head, its result where it has one (large: still
 * open, with the rate it makes on the `base` it risked, or `realized`), its lines, then its foot
 * (the time and buttons, the evidence, a sheet).
 */
export function PositionCard({
  testId,
  head,
  result,
  children,
  foot,
}: {
  testId: string;
  head: React.ReactNode;
  result?: {
    value: string | null | undefined;
    currency: string;
    base?: string;
    realized?: boolean;
  };
  children: React.ReactNode;
  foot?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const value = result?.value;
  const className = signClass(value);
  const rate = value && result?.base ? returnRate(value, result.base) : undefined;
  return (
    <article className="position-card" data-testid={testId}>
      {head}
      {result && (
        <div className="position-pnl">
          <span className="muted">
            {t(result.realized ? 'position_realizedPnl' : 'position_unrealizedPnl')}
          </span>
          <strong
            dir="ltr"
            className={className}
            data-testid={`${testId}-${result.realized ? 'realized' : 'pnl'}`}
          >
            {signedMoney(value, tradeScale())} {result.currency}
          </strong>
          {rate && (
            <span dir="ltr" className={className} style={{ fontSize: 12 }}>
              {rate}
            </span>
          )}
        </div>
      )}
      <div className="trade-grid">{children}</div>
      {foot}
    </article>
  );
}

/**
 * The head of a card or an order row: a badge (the side), the product's name and its code, then
 * at the end what `children` puts there (a status, a button).
 */
export function CardTitle({
  badge,
  name,
  code,
  children,
}: {
  badge?: React.ReactNode;
  name: string;
  code?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="row" style={{ gap: 6, minWidth: 0 }}>
      {badge}
      <strong className="ellipsis">{name}</strong>
      {code !== undefined && <SmallNote>{code}</SmallNote>}
      <span className="spacer" />
      {children}
    </div>
  );
}

/**
 * Why no order can be placed on a product now: its market is closed, or, for a buy or an open
 * (`opening`), it is halted. A halt never stops a sell (PRODUCT section 1, rule 8).
 */
export function closedReason(
  product: { isLock: number; marketOpen: boolean },
  opening = true,
): string | undefined {
  if (opening && product.isLock === 1) return 'hint_productHalted';
  if (!product.marketOpen) return 'hint_marketClosed';
  return undefined;
}

/** Sends a visitor to sign in, and back to this screen (with its query) afterwards. */
export function useSignIn(): () => void {
  const { pathname, search } = useLocation();
  return () => navigateTo('login', { redirect: `${pathname}${search}` });
}
