/** The pieces the order forms and the position screens share. */
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ORDER_DIRECTION, type TickEvidence } from '@bourse/shared';
import { navigateTo } from '../../lib/navigation';
import { percentText, priceText, tickTime } from './trading-api';

/** What the user may type in an amount: digits and one decimal point (a comma counts as one). */
export function cleanAmount(value: string): string {
  const text = value.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const point = text.indexOf('.');
  return point < 0 ? text : text.slice(0, point + 1) + text.slice(point + 1).replace(/\./g, '');
}

export const SHARES = ['0.25', '0.5', '0.75', '1'] as const;

/** A line of a preview or a card: label at the start, value at the end. */
export function Line({
  label,
  children,
  testId,
  strong = false,
}: {
  label: string;
  children: React.ReactNode;
  testId?: string;
  strong?: boolean;
}) {
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

/** A tick as evidence: price, time to the millisecond, source and sequence number. */
export function TickCard({
  title,
  tick,
  priceScale,
  testId,
}: {
  title: string;
  tick: TickEvidence;
  priceScale: number;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <section className="tick-card" data-testid={testId}>
      <strong>{title}</strong>
      <Line label={t('fast_price')} testId={`${testId}-price`}>
        {priceText(tick.price, priceScale)}
      </Line>
      <Line label={t('fast_time')} testId={`${testId}-time`}>
        {tickTime(tick.time)}
      </Line>
      <Line label={t('fast_source')} testId={`${testId}-source`}>
        {tick.source}
      </Line>
      <Line label={t('fast_sequence')} testId={`${testId}-sequence`}>
        {tick.sequence}
      </Line>
    </section>
  );
}

/** Why no order can be placed on a product now (halted, or its market closed). */
export function closedReason(product: { isLock: number; marketOpen: boolean }): string | undefined {
  if (product.isLock === 1) return 'hint_productHalted';
  if (!product.marketOpen) return 'hint_marketClosed';
  return undefined;
}

/** Sends a visitor to sign in, and back to this screen (with its query) afterwards. */
export function useSignIn(): () => void {
  const { pathname, search } = useLocation();
  return () => navigateTo('login', { redirect: `${pathname}${search}` });
}
