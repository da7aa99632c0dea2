/** The pieces the order forms and the position screens share. */
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ORDER_DIRECTION, parseDecimal, tpSlProblems } from '@bourse/shared';
import {
  TickCard as EvidenceCard,
  type LineProps,
  type TickCardLook,
  type TickCardProps,
} from '../../components/tick-card';
import { translate } from '../../i18n';
import { navigateTo } from '../../lib/navigation';
import { SHARES, percentText, tickTime } from '../../lib/trade';
import { priceText } from './trading-api';

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
      <span data-testid={testId}>{children}</span>
    </div>
  );
}

/** A row of choices, one pressed. */
export function Choices<T extends string | number>({
  label,
  options,
  value,
  onChange,
  testId,
}: {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  testId: string;
}) {
  return (
    <div className="trade-choices" role="group" aria-label={label} data-testid={testId}>
      {options.map((option) => (
        <button
          key={String(option.value)}
          type="button"
          aria-pressed={option.value === value}
          data-testid={`${testId}-${option.value}`}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
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

/** 25 / 50 / 75 / 100 % of what is available. */
export function Shares({
  onPick,
  disabled,
  testId,
}: {
  onPick: (share: string) => void;
  disabled: boolean;
  testId: string;
}) {
  return (
    <div className="trade-shares">
      {SHARES.map((share) => {
        const percent = percentText(share);
        return (
          <button
            key={share}
            type="button"
            disabled={disabled}
            data-testid={`${testId}-${percent.replace('%', '')}`}
            onClick={() => onPick(share)}
          >
            {percent}
          </button>
        );
      })}
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

/** The foot of a card or an order row: a time at the start, its buttons at the end. */
export function CardFoot({ time, children }: { time: string; children: React.ReactNode }) {
  return (
    <div className="row" style={{ gap: 8 }}>
      <span className="muted" style={{ fontSize: 12 }}>
        {time}
      </span>
      <span className="spacer" />
      {children}
    </div>
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

/**
 * Take-profit and stop-loss as typed, each parsed, with what is wrong with it: not a price, or
 * against the server's rules (checked when there is a price to check them against).
 */
export function useTpSl(
  takeProfit: string,
  stopLoss: string,
  against:
    | { direction: number; reference: string; liquidation: string | undefined; priceScale: number }
    | undefined,
) {
  const { t } = useTranslation();
  const takeProfitParsed = parseDecimal(takeProfit);
  const stopLossParsed = parseDecimal(stopLoss);
  const takeProfitValue = takeProfitParsed.ok ? takeProfitParsed.value : undefined;
  const stopLossValue = stopLossParsed.ok ? stopLossParsed.value : undefined;
  const problems = against
    ? tpSlProblems(
        against.direction,
        against.reference,
        takeProfitValue,
        stopLossValue,
        against.liquidation,
        against.priceScale,
      )
    : {};
  const takeProfitError =
    takeProfit && !takeProfitParsed.ok
      ? t('trade_priceInvalid')
      : problems.takeProfit && translate(problems.takeProfit.key, problems.takeProfit.params);
  const stopLossError =
    stopLoss && !stopLossParsed.ok
      ? t('trade_priceInvalid')
      : problems.stopLoss && translate(problems.stopLoss.key, problems.stopLoss.params);
  return {
    takeProfit: takeProfitValue,
    stopLoss: stopLossValue,
    takeProfitError: takeProfitError || undefined,
    stopLossError: stopLossError || undefined,
  };
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
