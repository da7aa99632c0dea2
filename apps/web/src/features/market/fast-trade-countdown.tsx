/**
 * A fast trade from its placing to its result: the seconds left to expiry (the device clock
 * corrected by the server's, see `serverNow`), the live price against the entry, then, once the
 * deciding tick has settled it (the detail is read every second after expiry until it is no
 * longer open), won / lost / tie with the amount, and the evidence: the entry and exit ticks with
 * their price, time to the millisecond, source and sequence number.
 */
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import {
  FAST_TRADE_STATUS,
  ORDER_DIRECTION,
  cmp,
  formatAmount,
  type FastTradeOrder,
} from '@bourse/shared';
import { BottomSheet } from '../../components/bottom-sheet';
import { EvidenceTicks } from '../../components/evidence-ticks';
import type { LineProps, TickCardLook } from '../../components/tick-card';
import { useLiveTicker } from '../../hooks/use-live-tickers';
import { translate } from '../../i18n';
import { currencyScale, money, signedMoney, tickTime, tradeCurrencyId } from '../../lib/trade';
import {
  FAST_STATUS_COLOR,
  FAST_STATUS_LABEL,
  FAST_TRADES_KEY,
  durationText,
  fetchFastTrade,
  secondsLeft,
  serverNow,
} from './fast-trade-api';

/** Seconds left to `expiresAt`, re-rendered a few times a second while it counts. */
export function useSecondsLeft(expiresAt: number, counting: boolean): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    if (!counting) return;
    const timer = setInterval(() => setNow(serverNow()), 250);
    return () => clearInterval(timer);
  }, [counting]);
  return secondsLeft(expiresAt, counting ? now : serverNow());
}

/**
 * The order as the server has it: the one given at first, then read again at expiry and every
 * second after it until it is settled. Settling refreshes the recent trades and the balance.
 */
export function useFastTrade(initial: FastTradeOrder): FastTradeOrder {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: [FAST_TRADES_KEY, 'detail', initial.id],
    queryFn: () => fetchFastTrade(initial.id),
    initialData: initial,
    initialDataUpdatedAt: 0,
    enabled: initial.status === FAST_TRADE_STATUS.open,
    refetchOnMount: false,
    refetchOnWindowFocus: false,
    refetchInterval: (current) => {
      const order = current.state.data;
      if (!order || order.status !== FAST_TRADE_STATUS.open) return false;
      return Math.max(1000, order.expiresAt - serverNow());
    },
  });
  const order = query.data ?? initial;
  const settled = order.status !== FAST_TRADE_STATUS.open;
  useEffect(() => {
    if (!settled || initial.status !== FAST_TRADE_STATUS.open) return;
    void queryClient.invalidateQueries({ queryKey: [FAST_TRADES_KEY, 'list'] });
    void queryClient.invalidateQueries({ queryKey: ['userBalance'] });
  }, [settled, initial.status, queryClient]);
  return order;
}

function directionLabel(direction: number): { text: string; className: string } {
  return direction === ORDER_DIRECTION.down
    ? { text: 'fast_down', className: 'down' }
    : { text: 'fast_up', className: 'up' };
}

/** One line: label at the start, value at the end. */
function Line({ label, children, testId }: LineProps) {
  return (
    <div className="row" style={{ fontSize: 13, minWidth: 0 }}>
      <span className="muted">{label}</span>
      <span className="spacer" />
      <span
        data-testid={testId}
        style={{ fontVariantNumeric: 'tabular-nums', textAlign: 'end', overflowWrap: 'anywhere' }}
      >
        {children}
      </span>
    </div>
  );
}

/** The evidence cards of a result, side by side: the time without the day. */
const TICK_CARD_LOOK: TickCardLook = {
  Line,
  className: 'stack',
  style: {
    gap: 4,
    flex: 1,
    minWidth: 0,
    padding: 10,
    borderRadius: 10,
    background: 'var(--surface-raised)',
  },
  titleStyle: { fontSize: 13 },
  price: (price, priceScale) => formatAmount(price, { decimals: priceScale }),
  time: (ms) => tickTime(ms, { day: false }),
};

/** Decimals of a price as the server sent it ("67012.50" has 2). */
function priceScaleOf(price: string): number {
  const point = price.indexOf('.');
  return point < 0 ? 0 : price.length - point - 1;
}

/** An open trade: the seconds left, then the entry against the live price and the stake. */
function Running({
  order,
  left,
  livePrice,
  scale,
  priceScale,
}: {
  order: FastTradeOrder;
  left: number;
  livePrice: string | undefined;
  scale: number;
  priceScale: number;
}) {
  const { t } = useTranslation();
  const total = Math.max(1, order.durationSeconds);
  const progress = Math.min(1, Math.max(0, left / total));
  const moved = livePrice ? cmp(livePrice, order.entry.price) : 0;
  return (
    <section
      className="stack"
      style={{ gap: 10, alignItems: 'center' }}
      aria-live="polite"
      data-testid="fast-countdown-open"
    >
      <span className="muted" style={{ fontSize: 13 }}>
        {t('fast_remaining')}
      </span>
      <strong
        data-testid="fast-countdown-seconds"
        style={{ fontSize: 40, fontVariantNumeric: 'tabular-nums', lineHeight: 1 }}
      >
        {translate('fast_secondsLeft', [left])}
      </strong>
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={left}
        style={{
          width: '100%',
          height: 6,
          borderRadius: 3,
          background: 'var(--surface-raised)',
          overflow: 'hidden',
        }}
      >
        <div
          style={{
            width: `${progress * 100}%`,
            height: '100%',
            background: 'var(--accent)',
            transition: 'width 250ms linear',
          }}
        />
      </div>
      {left === 0 && (
        <span className="muted" style={{ fontSize: 13 }} data-testid="fast-countdown-settling">
          {t('fast_settling')}
        </span>
      )}
      <div className="stack" style={{ gap: 6, width: '100%' }}>
        <Line label={t('fast_entry')} testId="fast-countdown-entry">
          {formatAmount(order.entry.price, { decimals: priceScale })} ·{' '}
          {tickTime(order.entry.time, { day: false })}
        </Line>
        <Line label={t('fast_livePrice')} testId="fast-countdown-live">
          <span className={moved > 0 ? 'up' : moved < 0 ? 'down' : undefined}>
            {livePrice ? formatAmount(livePrice, { decimals: priceScale }) : '- -'}
          </span>
        </Line>
        <Line label={t('fast_stake')}>
          {money(order.amount, scale)} {order.currencyName}
        </Line>
      </div>
    </section>
  );
}

/** A settled trade: won, lost or tie with the amount, and the entry and exit ticks as evidence. */
function Settled({
  order,
  scale,
  priceScale,
}: {
  order: FastTradeOrder;
  scale: number;
  priceScale: number;
}) {
  const { t } = useTranslation();
  return (
    <section className="stack" style={{ gap: 10 }} data-testid="fast-result">
      <div className="stack" style={{ gap: 4, alignItems: 'center' }}>
        <strong
          data-testid="fast-result-status"
          style={{ fontSize: 20, color: FAST_STATUS_COLOR[order.status] }}
        >
          {t(FAST_STATUS_LABEL[order.status] ?? 'fast_status_open')}
        </strong>
        <strong
          data-testid="fast-result-amount"
          style={{
            fontSize: 28,
            fontVariantNumeric: 'tabular-nums',
            color: FAST_STATUS_COLOR[order.status],
          }}
        >
          {signedMoney(order.result, scale)} {order.currencyName}
        </strong>
        <span className="muted" style={{ fontSize: 12 }}>
          {translate('fast_stakeOf', [`${money(order.amount, scale)} ${order.currencyName}`])}
          {' · '}
          {t('fast_fee')} {money(order.fee, scale)}
        </span>
      </div>
      <span className="muted" style={{ fontSize: 13 }}>
        {t('fast_evidence')}
      </span>
      <div className="row" style={{ alignItems: 'stretch', gap: 8 }}>
        <EvidenceTicks
          trade={order}
          titles={{ entry: t('fast_entry'), exit: t('fast_exit') }}
          testId={(side) => `fast-result-${side}`}
          priceScale={priceScale}
          look={TICK_CARD_LOOK}
        />
      </div>
    </section>
  );
}

export function FastTradeCountdown({ order: initial }: { order: FastTradeOrder }) {
  const { t } = useTranslation();
  const order = useFastTrade(initial);
  const open = order.status === FAST_TRADE_STATUS.open;
  const left = useSecondsLeft(order.expiresAt, open);
  const live = useLiveTicker(order.productType, order.productCode);
  const scale = currencyScale(tradeCurrencyId()) ?? 2;
  const priceScale = priceScaleOf(order.entry.price);
  const direction = directionLabel(order.orderDirection);

  return (
    <div className="stack" style={{ gap: 14 }} data-testid="fast-countdown">
      <div className="row" style={{ gap: 10 }}>
        <div className="stack" style={{ gap: 2, minWidth: 0 }}>
          <strong className="ellipsis" style={{ fontSize: 16 }}>
            {order.productName || order.productCode}
          </strong>
          <span className="muted" style={{ fontSize: 12 }}>
            {order.orderNo}
          </span>
        </div>
        <span className="spacer" />
        <span
          className={direction.className}
          style={{ fontWeight: 700 }}
          data-testid="fast-countdown-direction"
        >
          {t(direction.text)} · {durationText(order.durationSeconds)}
        </span>
      </div>
      {open ? (
        <Running
          order={order}
          left={left}
          livePrice={live?.nowPrice}
          scale={scale}
          priceScale={priceScale}
        />
      ) : (
        <Settled order={order} scale={scale} priceScale={priceScale} />
      )}
    </div>
  );
}

/** The countdown in a bottom sheet, opened right after placing or from the recent trades. */
export function FastTradeCountdownPopup({
  order,
  onClose,
}: {
  order: FastTradeOrder | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <BottomSheet visible={Boolean(order)} onClose={onClose} onMaskClick={onClose} destroyOnClose>
      <div
        data-testid="fast-countdown-popup"
        className="stack"
        style={{ gap: 16, padding: '20px 16px calc(16px + env(safe-area-inset-bottom))' }}
      >
        {order && <FastTradeCountdown key={order.id} order={order} />}
        <Button block onClick={onClose} data-testid="fast-countdown-close">
          {t('fast_close')}
        </Button>
      </div>
    </BottomSheet>
  );
}
