/**
 * The user's recent fast trades (every product, newest first): open ones count down, settled ones
 * show their result. A row opens the countdown or the result with its evidence. The list reads
 * itself again when an open trade's time is up, every second until none is waiting.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { FAST_TRADE_STATUS, ORDER_DIRECTION, type FastTradeOrder } from '@bourse/shared';
import { translate } from '../../i18n';
import { currencyScale, money, signedMoney, tradeCurrencyId } from '../../lib/trade';
import {
  FAST_STATUS_COLOR,
  FAST_STATUS_LABEL,
  FAST_TRADES_KEY,
  durationText,
  fetchFastTrades,
  serverNow,
} from './fast-trade-api';
import { useSecondsLeft } from './fast-trade-countdown';

function OpenLeft({ expiresAt }: { expiresAt: number }) {
  const { t } = useTranslation();
  const left = useSecondsLeft(expiresAt, true);
  return (
    <span style={{ color: 'var(--accent)' }} data-testid="fast-trade-left">
      {left > 0 ? translate('fast_secondsLeft', [left]) : t('fast_status_open')}
    </span>
  );
}

function TradeRow({ order, onOpen }: { order: FastTradeOrder; onOpen: () => void }) {
  const { t } = useTranslation();
  const scale = currencyScale(tradeCurrencyId()) ?? 2;
  const up = order.orderDirection === ORDER_DIRECTION.up;
  const open = order.status === FAST_TRADE_STATUS.open;
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid={`fast-trade-${order.id}`}
      data-status={order.status}
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 10,
        width: '100%',
        padding: '10px 0',
        background: 'none',
        border: 0,
        borderBlockEnd: '1px solid var(--border)',
        color: 'var(--text)',
        font: 'inherit',
        textAlign: 'start',
        cursor: 'pointer',
      }}
    >
      <span className="stack" style={{ gap: 2, minWidth: 0, flex: 1 }}>
        <span className="row" style={{ gap: 6, fontSize: 14 }}>
          <strong className="ellipsis">{order.productCode}</strong>
          <span className={up ? 'up' : 'down'} style={{ fontSize: 12, fontWeight: 600 }}>
            {t(up ? 'fast_up' : 'fast_down')}
          </span>
          <span className="muted" style={{ fontSize: 12 }}>
            {durationText(order.durationSeconds)}
          </span>
        </span>
        <span className="muted" style={{ fontSize: 12, fontVariantNumeric: 'tabular-nums' }}>
          {money(order.amount, scale)} {order.currencyName}
        </span>
      </span>
      <span
        className="stack"
        style={{ gap: 2, alignItems: 'flex-end', fontSize: 13, fontVariantNumeric: 'tabular-nums' }}
      >
        {open ? (
          <OpenLeft expiresAt={order.expiresAt} />
        ) : (
          <>
            <strong style={{ color: FAST_STATUS_COLOR[order.status] }}>
              {signedMoney(order.result, scale)}
            </strong>
            <span style={{ fontSize: 12, color: FAST_STATUS_COLOR[order.status] }}>
              {t(FAST_STATUS_LABEL[order.status] ?? 'fast_status_open')}
            </span>
          </>
        )}
      </span>
    </button>
  );
}

export function FastTradeList({
  book,
  onOpen,
}: {
  /** The account in use (live or demo): each has its own trades. */
  book: number | undefined;
  onOpen: (order: FastTradeOrder) => void;
}) {
  const { t } = useTranslation();
  const trades = useQuery({
    queryKey: [FAST_TRADES_KEY, 'list', book],
    queryFn: () => fetchFastTrades(10),
    refetchInterval: (query) => {
      const open = (query.state.data ?? []).filter(
        (order) => order.status === FAST_TRADE_STATUS.open,
      );
      if (open.length === 0) return false;
      const soonest = Math.min(...open.map((order) => order.expiresAt));
      return Math.max(1000, soonest - serverNow());
    },
  });
  const rows = trades.data ?? [];
  return (
    <section
      className="card stack"
      style={{ gap: 0, margin: '0 16px 16px' }}
      aria-label={t('fast_recent')}
      data-testid="fast-trade-list"
    >
      <strong style={{ fontSize: 14, marginBlockEnd: 4 }}>{t('fast_recent')}</strong>
      {trades.isSuccess && rows.length === 0 && (
        <span className="muted" style={{ fontSize: 13, paddingTop: 6 }}>
          {t('fast_noTrades')}
        </span>
      )}
      {rows.map((order) => (
        <TradeRow key={order.id} order={order} onOpen={() => onOpen(order)} />
      ))}
    </section>
  );
}
