/**
 * The contract tab of the positions screen: open positions with the live mark price and the
 * unrealized result worked out from each tick (as the server does), the liquidation price and
 * take-profit / stop-loss, to close (after a confirmation) or to change; resting limit entries to
 * cancel; and the history of closed and cancelled ones with why they closed, the exit price, the
 * realized result, the fees and the entry and exit ticks as evidence. Open and resting ones are
 * read again every few seconds, so a take-profit, stop-loss, liquidation or fill shows up.
 */
import { useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import {
  CONTRACT_STATUS,
  ORDER_DIRECTION,
  POSITION_TYPE,
  add,
  closeAmounts,
  closingDirection,
  cmp,
  formatDateTime,
  parseDecimal,
  sub,
  type ContractPosition,
  liquidationPrice,
  unrealizedPnl,
} from '@bourse/shared';
import { showToast } from '../../api';
import { AmountField } from '../../components/amount-field';
import { BottomSheet } from '../../components/bottom-sheet';
import { useLiveTicker } from '../../hooks/use-live-tickers';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { Dialog } from '../../lib/antd-render';
import {
  currencyScale,
  money,
  percentText,
  signedMoney,
  tradeCurrencyId,
  useRequestId,
} from '../../lib/trade';
import { useBook, useFeeRate, useRefreshTrading } from './hooks';
import { priceScaleOf } from './order-list';
import { CardFoot, EvidenceToggle, Line, TickCard, useTpSl } from './parts';
import {
  CLOSE_REASON_LABEL,
  CONTRACT_STATUS_LABEL,
  LIVE_REFRESH_MS,
  TRADING_KEY,
  cancelContract,
  closeContract,
  fetchContracts,
  priceText,
  quantityText,
  returnRate,
  updateTpSl,
} from './trading-api';

const HISTORY_PAGE = 20;

function pnlClass(value: string | null | undefined): string {
  if (!value) return '';
  const sign = cmp(value, '0');
  return sign > 0 ? 'up' : sign < 0 ? 'down' : '';
}

/** The side and leverage badge: "Long 10×". */
function SideTag({ position }: { position: ContractPosition }) {
  const { t } = useTranslation();
  const long = position.orderDirection === ORDER_DIRECTION.up;
  return (
    <span className={`side-tag ${long ? 'up' : 'down'}`}>
      {t(long ? 'trade_long' : 'trade_short')} {position.leverage}×
    </span>
  );
}

function CardHead({ position, status }: { position: ContractPosition; status: string }) {
  return (
    <div className="row" style={{ gap: 6, minWidth: 0 }}>
      <SideTag position={position} />
      <strong className="ellipsis">{position.productName || position.productCode}</strong>
      <span className="muted" style={{ fontSize: 12 }}>
        {position.productCode}
      </span>
      <span className="spacer" />
      <span className="status-tag" data-testid={`position-${position.id}-status`}>
        {status}
      </span>
    </div>
  );
}

/** The buttons of an open or a resting position: take-profit / stop-loss, and close or cancel. */
function CardActions({
  position,
  onEdit,
  action,
  label,
  name,
}: {
  position: ContractPosition;
  onEdit: () => void;
  /** Closes or cancels the position. */
  action: { pending: boolean; submit: () => Promise<void> };
  label: string;
  /** Of the action's test id: close, cancel. */
  name: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Button
        size="small"
        fill="outline"
        onClick={onEdit}
        data-testid={`position-${position.id}-edit`}
      >
        {t('position_tpSl')}
      </Button>
      <Button
        size="small"
        color="warning"
        loading={action.pending}
        disabled={action.pending}
        onClick={() => void action.submit()}
        data-testid={`position-${position.id}-${name}`}
      >
        {label}
      </Button>
    </>
  );
}

/** The take-profit and stop-loss of a position, or - - where there is none. */
function LevelLines({
  position,
  priceScale,
  testId,
}: {
  position: ContractPosition;
  priceScale: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Line label={t('trade_takeProfit')} testId={testId && `${testId}-tp`}>
        {position.takeProfit ? priceText(position.takeProfit, priceScale) : '- -'}
      </Line>
      <Line label={t('trade_stopLoss')} testId={testId && `${testId}-sl`}>
        {position.stopLoss ? priceText(position.stopLoss, priceScale) : '- -'}
      </Line>
    </>
  );
}

/** The sheet to set or clear take-profit and stop-loss, checked as the server checks them. */
function TpSlPopup({
  position,
  reference,
  onClose,
}: {
  position: ContractPosition | undefined;
  /** The price the levels must lie on either side of: the mark (open) or the limit (resting). */
  reference: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <BottomSheet
      visible={Boolean(position)}
      onClose={onClose}
      onMaskClick={onClose}
      destroyOnClose
      bodyClassName="trade-sheet"
    >
      {position && reference && (
        <TpSlForm position={position} reference={reference} onDone={onClose} />
      )}
      {position && !reference && <p className="muted">{t('common_loading')}</p>}
    </BottomSheet>
  );
}

/** A take-profit or stop-loss field, with what the position would bring at the level under it. */
function LevelField({
  label,
  id,
  value,
  onChange,
  error,
  outcome,
  scale,
}: {
  label: string;
  id: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  outcome: string | undefined;
  scale: number;
}) {
  const { t } = useTranslation();
  return (
    <>
      <AmountField
        label={label}
        id={id}
        error={error}
        placeholder={t('position_noLevel')}
        value={value}
        clearable
        onChange={onChange}
      />
      {outcome && (
        <span className="muted trade-note" data-testid={`${id}-outcome`}>
          {translate('position_resultAt', [signedMoney(outcome, scale)])}
        </span>
      )}
    </>
  );
}

function TpSlForm({
  position,
  reference: initialReference,
  onDone,
}: {
  position: ContractPosition;
  reference: string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const refresh = useRefreshTrading();
  const live = useLiveTicker(position.productType, position.productCode);
  // An open position's levels are checked against the price now; a resting one's, its limit.
  const reference =
    position.status === CONTRACT_STATUS.open
      ? (live?.nowPrice ?? initialReference)
      : initialReference;
  const priceScale = priceScaleOf(position.entryPrice ?? position.limitPrice);
  const scale = currencyScale(tradeCurrencyId()) ?? 4;
  const [takeProfit, setTakeProfit] = useState(position.takeProfit ?? '');
  const [stopLoss, setStopLoss] = useState(position.stopLoss ?? '');
  const liquidation =
    position.liquidationPrice ??
    liquidationPrice(
      position.orderDirection,
      reference,
      position.quantity,
      position.margin,
      position.maintenanceRate,
      priceScale,
    );
  const levels = useTpSl(takeProfit, stopLoss, {
    direction: position.orderDirection,
    reference,
    liquidation,
    priceScale,
  });

  /** What the position would bring at a level: the result there, less nothing else. */
  function outcome(level: string): string | undefined {
    const parsed = parseDecimal(level);
    if (!parsed.ok || !position.entryPrice) return undefined;
    return unrealizedPnl(
      position.orderDirection,
      position.entryPrice,
      parsed.value,
      position.quantity,
      position.margin,
      scale,
    );
  }

  const save = useSubmit(async () => {
    await updateTpSl(position.id, levels.takeProfit ?? '', levels.stopLoss ?? '').finally(refresh);
    showToast(t('position_tpSlSaved'));
    onDone();
  });

  return (
    <div className="stack" style={{ gap: 14 }} data-testid="tpsl-popup">
      <h2 className="sheet-title">{t('position_tpSlTitle')}</h2>
      <div className="trade-lines">
        <Line label={position.productCode}>
          <SideTag position={position} />
        </Line>
        <Line label={t(position.entryPrice ? 'position_markPrice' : 'trade_limitPrice')}>
          {priceText(reference, priceScale)}
        </Line>
        <Line label={t('trade_liquidationPrice')}>
          <span className="down">{priceText(liquidation, priceScale)}</span>
        </Line>
      </div>
      <LevelField
        label={t('trade_takeProfit')}
        id="tpsl-take-profit"
        value={takeProfit}
        onChange={setTakeProfit}
        error={levels.takeProfitError}
        outcome={levels.takeProfitError ? undefined : outcome(takeProfit)}
        scale={scale}
      />
      <LevelField
        label={t('trade_stopLoss')}
        id="tpsl-stop-loss"
        value={stopLoss}
        onChange={setStopLoss}
        error={levels.stopLossError}
        outcome={levels.stopLossError ? undefined : outcome(stopLoss)}
        scale={scale}
      />
      <span className="muted trade-note">{t('position_tpSlHint')}</span>
      <Button
        block
        color="primary"
        loading={save.pending}
        disabled={save.pending || Boolean(levels.takeProfitError || levels.stopLossError)}
        onClick={() => void save.submit()}
        data-testid="tpsl-save"
      >
        {t('common_save')}
      </Button>
    </div>
  );
}

/** An open or a resting position, whose take-profit and stop-loss can be changed. */
interface LiveCardProps {
  position: ContractPosition;
  /** Opens the sheet, with the price the levels are checked against when known. */
  onEdit: (position: ContractPosition, reference: string | undefined) => void;
}

function OpenPositionCard({ position, onEdit }: LiveCardProps) {
  const { t } = useTranslation();
  const refresh = useRefreshTrading();
  const live = useLiveTicker(position.productType, position.productCode);
  const scale = currencyScale(tradeCurrencyId()) ?? 4;
  const priceScale = priceScaleOf(position.entryPrice);
  const mark = live?.nowPrice ?? position.markPrice ?? undefined;
  const pnl =
    mark && position.entryPrice
      ? unrealizedPnl(
          position.orderDirection,
          position.entryPrice,
          mark,
          position.quantity,
          position.margin,
          scale,
        )
      : position.unrealizedPnl;
  const roe = pnl ? returnRate(pnl, position.margin) : undefined;
  // A close pays the fee of the opposite direction, on the notional at the closing price.
  const closeFee = useFeeRate(
    position.productType,
    POSITION_TYPE.contract,
    closingDirection(position.orderDirection),
  );
  const closing =
    mark && position.entryPrice && closeFee.known
      ? closeAmounts(
          {
            direction: position.orderDirection,
            entryPrice: position.entryPrice,
            quantity: position.quantity,
            margin: position.margin,
          },
          mark,
          closeFee.rate,
          scale,
        )
      : undefined;
  // One request id per position: a retry after a lost answer gets the first close's result.
  const closeRequest = useRequestId('cc');

  const close = useSubmit(async () => {
    const confirmed = await Dialog.confirm({
      title: t('position_closeTitle'),
      content: (
        <div className="trade-lines" data-testid="close-confirm">
          <Line label={position.productCode}>
            <SideTag position={position} />
          </Line>
          <Line label={t('trade_quantity')}>{quantityText(position.quantity)}</Line>
          <Line label={t('position_markPrice')} testId="close-mark">
            {priceText(mark, priceScale)}
          </Line>
          <Line label={t('position_unrealizedPnl')}>
            <span className={pnlClass(pnl)}>{signedMoney(pnl, scale)}</span>
          </Line>
          {closing && (
            <>
              <Line
                label={translate('trade_feeRate', [percentText(closeFee.rate)])}
                testId="close-fee"
              >
                {money(closing.fee, scale)}
              </Line>
              <Line label={t('position_closeReturns')} testId="close-returns">
                {money(closing.returned, scale)}
              </Line>
            </>
          )}
          <p className="muted trade-note">{t('position_closeNote')}</p>
        </div>
      ),
      confirmText: t('position_close'),
      cancelText: t('common_cancel'),
    });
    if (!confirmed) return;
    const closed = await closeContract(
      position.id,
      closeRequest.idFor(String(position.id)),
    ).finally(refresh);
    showToast(
      translate('position_closedAt', [
        priceText(closed.exitPrice, priceScale),
        signedMoney(closed.realizedPnl, scale),
      ]),
    );
  });

  return (
    <article className="position-card" data-testid={`position-${position.id}`}>
      <CardHead position={position} status={t(CONTRACT_STATUS_LABEL[position.status]!)} />
      <div className="position-pnl">
        <span className="muted">{t('position_unrealizedPnl')}</span>
        <strong className={pnlClass(pnl)} data-testid={`position-${position.id}-pnl`}>
          {signedMoney(pnl, scale)} {position.currencyName}
        </strong>
        {roe && (
          <span className={pnlClass(pnl)} style={{ fontSize: 12 }}>
            {roe}
          </span>
        )}
      </div>
      <div className="trade-grid">
        <Line label={t('trade_quantity')}>{quantityText(position.quantity)}</Line>
        <Line label={t('trade_margin')}>{money(position.margin, scale)}</Line>
        <Line label={t('trade_entryPrice')}>{priceText(position.entryPrice, priceScale)}</Line>
        <Line label={t('position_markPrice')} testId={`position-${position.id}-mark`}>
          {priceText(mark, priceScale)}
        </Line>
        <Line label={t('trade_liquidationPrice')} testId={`position-${position.id}-liquidation`}>
          <span className="down">{priceText(position.liquidationPrice, priceScale)}</span>
        </Line>
        <Line label={t('trade_fee')}>{money(position.openFee, scale)}</Line>
        <LevelLines
          position={position}
          priceScale={priceScale}
          testId={`position-${position.id}`}
        />
      </div>
      <CardFoot time={position.openTime ? formatDateTime(position.openTime) : ''}>
        <CardActions
          position={position}
          onEdit={() => onEdit(position, mark)}
          action={close}
          label={t('position_close')}
          name="close"
        />
      </CardFoot>
    </article>
  );
}

function PendingCard({ position, onEdit }: LiveCardProps) {
  const { t } = useTranslation();
  const refresh = useRefreshTrading();
  const scale = currencyScale(tradeCurrencyId()) ?? 4;
  const priceScale = priceScaleOf(position.limitPrice);
  const live = useLiveTicker(position.productType, position.productCode);
  const cancel = useSubmit(async () => {
    await cancelContract(position.id).finally(refresh);
    showToast(t('trade_orderCancelled'));
  });
  return (
    <article className="position-card" data-testid={`position-${position.id}`}>
      <CardHead position={position} status={t(CONTRACT_STATUS_LABEL[position.status]!)} />
      <div className="trade-grid">
        <Line label={t('trade_limitPrice')} testId={`position-${position.id}-limit`}>
          {priceText(position.limitPrice, priceScale)}
        </Line>
        <Line label={t('position_lastPrice')}>
          {live ? priceText(live.nowPrice, priceScale) : '- -'}
        </Line>
        <Line label={t('trade_quantity')}>{quantityText(position.quantity)}</Line>
        <Line label={t('position_frozen')}>
          {money(add(position.margin, position.openFee), scale)}
        </Line>
        <LevelLines position={position} priceScale={priceScale} />
      </div>
      <CardFoot time={formatDateTime(position.createTime)}>
        <CardActions
          position={position}
          onEdit={() => onEdit(position, position.limitPrice ?? undefined)}
          action={cancel}
          label={t('common_cancel')}
          name="cancel"
        />
      </CardFoot>
    </article>
  );
}

function HistoryCard({ position }: { position: ContractPosition }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const scale = currencyScale(tradeCurrencyId()) ?? 4;
  const priceScale = priceScaleOf(position.entryPrice ?? position.limitPrice);
  const closed = position.status === CONTRACT_STATUS.closed;
  const fees = add(closed ? position.openFee : '0', position.closeFee ?? '0');
  const net = closed && position.realizedPnl ? sub(position.realizedPnl, fees) : undefined;
  const status = closed
    ? t(CLOSE_REASON_LABEL[position.closeReason ?? 1] ?? 'position_status_closed')
    : t(CONTRACT_STATUS_LABEL[position.status]!);
  return (
    <article className="position-card" data-testid={`position-${position.id}`}>
      <CardHead position={position} status={status} />
      {closed ? (
        <>
          <div className="position-pnl">
            <span className="muted">{t('position_realizedPnl')}</span>
            <strong
              className={pnlClass(position.realizedPnl)}
              data-testid={`position-${position.id}-realized`}
            >
              {signedMoney(position.realizedPnl, scale)} {position.currencyName}
            </strong>
          </div>
          <div className="trade-grid">
            <Line label={t('trade_quantity')}>{quantityText(position.quantity)}</Line>
            <Line label={t('trade_margin')}>{money(position.margin, scale)}</Line>
            <Line label={t('trade_entryPrice')}>{priceText(position.entryPrice, priceScale)}</Line>
            <Line label={t('position_exitPrice')} testId={`position-${position.id}-exit`}>
              {priceText(position.exitPrice, priceScale)}
            </Line>
            <Line label={t('position_fees')} testId={`position-${position.id}-fees`}>
              {money(fees, scale)}
            </Line>
            <Line label={t('position_net')} testId={`position-${position.id}-net`}>
              <span className={pnlClass(net)}>{signedMoney(net, scale)}</span>
            </Line>
          </div>
        </>
      ) : (
        <div className="trade-grid">
          <Line label={t('trade_limitPrice')}>{priceText(position.limitPrice, priceScale)}</Line>
          <Line label={t('trade_quantity')}>{quantityText(position.quantity)}</Line>
        </div>
      )}
      <CardFoot time={position.closeTime ? formatDateTime(position.closeTime) : ''}>
        {closed && (
          <EvidenceToggle
            open={open}
            onToggle={() => setOpen(!open)}
            testId={`position-${position.id}-evidence-toggle`}
          />
        )}
      </CardFoot>
      {open && (
        <div className="stack" style={{ gap: 8 }} data-testid={`position-${position.id}-evidence`}>
          <span className="muted trade-note">{t('position_evidenceNote')}</span>
          {position.entry && (
            <TickCard
              title={t('position_entryTick')}
              tick={position.entry}
              priceScale={priceScale}
              testId={`position-${position.id}-entry-tick`}
            />
          )}
          {position.exit && (
            <TickCard
              title={t('position_exitTick')}
              tick={position.exit}
              priceScale={priceScale}
              testId={`position-${position.id}-exit-tick`}
            />
          )}
        </div>
      )}
    </article>
  );
}

export function ContractPositions() {
  const { t } = useTranslation();
  const book = useBook();
  const [editing, setEditing] = useState<{ position: ContractPosition; reference?: string }>();
  const live = useQuery({
    queryKey: [TRADING_KEY.contracts, 'live', book],
    queryFn: () => fetchContracts([CONTRACT_STATUS.pending, CONTRACT_STATUS.open], 100),
    refetchInterval: (query) =>
      (query.state.data?.rows.length ?? 0) > 0 ? LIVE_REFRESH_MS : false,
  });
  const history = useInfiniteQuery({
    queryKey: [TRADING_KEY.contracts, 'history', book],
    queryFn: ({ pageParam }) =>
      fetchContracts([CONTRACT_STATUS.closed, CONTRACT_STATUS.cancelled], HISTORY_PAGE, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.length * HISTORY_PAGE < last.total ? pages.length + 1 : undefined,
  });
  const rows = live.data?.rows ?? [];
  const open = rows.filter((row) => row.status === CONTRACT_STATUS.open);
  const pending = rows.filter((row) => row.status === CONTRACT_STATUS.pending);
  const past = history.data?.pages.flatMap((page) => page.rows) ?? [];
  const edit = (position: ContractPosition, reference: string | undefined) =>
    setEditing({ position, reference });

  return (
    <div className="stack" style={{ gap: 8 }} data-testid="contract-positions">
      <h2 className="section-title">
        {t('position_open')} {live.isSuccess ? `(${open.length})` : ''}
      </h2>
      {live.isSuccess && open.length === 0 && (
        <p className="muted empty-note">{t('position_noOpen')}</p>
      )}
      {open.map((position) => (
        <OpenPositionCard key={position.id} position={position} onEdit={edit} />
      ))}
      {pending.length > 0 && (
        <>
          <h2 className="section-title">
            {t('position_pending')} ({pending.length})
          </h2>
          {pending.map((position) => (
            <PendingCard key={position.id} position={position} onEdit={edit} />
          ))}
        </>
      )}
      <h2 className="section-title">{t('position_history')}</h2>
      {history.isSuccess && past.length === 0 && (
        <p className="muted empty-note">{t('position_noHistory')}</p>
      )}
      {past.map((position) => (
        <HistoryCard key={position.id} position={position} />
      ))}
      {history.hasNextPage && (
        <Button
          fill="none"
          loading={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          {t('position_more')}
        </Button>
      )}
      <TpSlPopup
        position={editing?.position}
        reference={editing?.reference}
        onClose={() => setEditing(undefined)}
      />
    </div>
  );
}
