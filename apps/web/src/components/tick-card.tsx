/**
 * A tick as evidence: price, time to the millisecond, source and sequence number. Each screen
 * gives its look: its own line, the card's style, and the price and the time as it shows them.
 */
import { useTranslation } from '../i18n/react';
import type { TickEvidence } from '@bourse/shared';

/** A line of a card or a preview: label at the start, value at the end. */
export interface LineProps {
  label: string;
  children: React.ReactNode;
  testId?: string;
}

export interface TickCardLook {
  Line: React.ComponentType<LineProps>;
  className?: string;
  style?: React.CSSProperties;
  titleStyle?: React.CSSProperties;
  price: (price: string, priceScale: number) => string;
  time: (ms: number) => string;
}

export interface TickCardProps {
  title: string;
  tick: TickEvidence;
  priceScale: number;
  testId: string;
  look: TickCardLook;
}

export function TickCard({ title, tick, priceScale, testId, look }: TickCardProps) {
  const { t } = useTranslation();
  const { Line } = look;
  return (
    <section className={look.className} data-testid={testId} style={look.style}>
      <strong style={look.titleStyle}>{title}</strong>
      <Line label={t('fast_price')} testId={`${testId}-price`}>
        {look.price(tick.price, priceScale)}
      </Line>
      <Line label={t('fast_time')} testId={`${testId}-time`}>
        {look.time(tick.time)}
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
