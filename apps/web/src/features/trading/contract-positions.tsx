/**
 * The contract tab of the positions screen: open positions with the live mark price and the
 * unrealized result worked out from each tick (as the server does), the liquidation price and
 * take-profit / stop-loss, to close (after a confirmation) or to change; resting limit entries to
 * cancel; and the history of closed and cancelled ones with why they closed, the exit price, the
 * realized result, the fees and the entry and exit ticks as evidence. Open and resting ones are
 * read again every few seconds, so a take-profit, stop-loss, liquidation or fill shows up.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import {
  CONTRACT_STATUS,
  ORDER_DIRECTION,
  POSITION_TYPE,
  add,
  closeAmounts,
  closingDirection,
  formatDateTime,
  isPositive,
  lt,
  parseDecimal,
  partShare,
  sub,
  type ContractPosition,
  liquidationPrice,
  unrealizedPnl,
  isolateLtr,
} from '@bourse/shared';
import { showToast } from '../../api';
import { ListStatus } from '../../components/status-views';
import { AmountField } from '../../components/amount-field';
import { BottomSheet } from '../../components/bottom-sheet';
import { useLiveTicker } from '../../hooks/use-live-tickers';
import { usePagedRows } from '../../hooks/use-paged-rows';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { Dialog } from '../../lib/antd-render';
import { money, percentText, signedMoney, useRequestId } from '../../lib/trade';
import { useBook, useFeeRate, useRefreshTrading, useTradingRows } from './hooks';
import { priceScaleOf } from './order-list';
import {
  CardFoot,
  CardTitle,
  EntryExitTicks,
  EvidenceToggle,
  LEVEL_LABEL,
  LEVELS,
  LevelFields,
  Line,
  MoreButton,
  PositionCard,
  signClass,
  useTpSl,
} from './parts';
import {
  CLOSE_REASON_LABEL,
  CONTRACT_STATUS_LABEL,
  TRADING_KEY,
  cancelContract,
  closeContract,
  fetchContracts,
  priceText,
  quantityText,
  tradeScale,
  updateTpSl,
} from './trading-api';

const HISTORY_PAGE = 20;

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

/** A card of a position: its side, product and status (its own, when no `status` is given). */
function ContractCard({
  position,
  status,
  ...card
}: Omit<React.ComponentProps<typeof PositionCard>, 'testId' | 'head'> & {
  position: ContractPosition;
  status?: string;
}) {
  const { t } = useTranslation();
  return (
    <PositionCard
      {...card}
      testId={`position-${position.id}`}
      head={
        <CardTitle
          badge={<SideTag position={position} />}
          name={position.productName || position.productCode}
          code={position.productCode}
        >
          <span className="status-tag" data-testid={`position-${position.id}-status`}>
            {status ?? t(CONTRACT_STATUS_LABEL[position.status]!)}
          </span>
        </CardTitle>
      }
    />
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
  return LEVELS.map((level) => (
    <Line
      key={level}
      label={t(LEVEL_LABEL[level])}
      testId={testId && `${testId}-${level === 'takeProfit' ? 'tp' : 'sl'}`}
    >
      {position[level] ? priceText(position[level], priceScale) : '- -'}
    </Line>
  ));
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
  const scale = tradeScale();
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
  const levels = useTpSl(
    { takeProfit: position.takeProfit ?? '', stopLoss: position.stopLoss ?? '' },
    {
      direction: position.orderDirection,
      reference,
      liquidation,
      priceScale,
    },
  );

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
      <LevelFields
        levels={levels}
        ids={{ takeProfit: 'tpsl-take-profit', stopLoss: 'tpsl-stop-loss' }}
        placeholder={t('position_noLevel')}
        clearable
        note={(level, id) => {
          const result = levels.errors[level] ? undefined : outcome(levels.typed[level]);
          return (
            result && (
              <span className="muted trade-note" data-testid={`${id}-outcome`}>
                {translate('position_resultAt', [isolateLtr(signedMoney(result, scale))])}
              </span>
            )
          );
        }}
      />
      <span className="muted trade-note">{t('position_tpSlHint')}</span>
      <Button
        block
        color="primary"
        loading={save.pending}
        disabled={save.pending || Boolean(levels.errors.takeProfit || levels.errors.stopLoss)}
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

/** A quantity as typed, without trailing zeros ('' when it is no number). */
function normalizeQuantity(text: string): string {
  const parsed = parseDecimal(text);
  return parsed.ok ? parsed.value : '';
}

/**
 * The close confirmation: the quantity to close (all of it unless changed: a part closes with
 * its share of the margin, as the server shares it) and, at the mark shown, the close fee and
 * what comes back for that quantity.
 */
function CloseConfirm({
  position,
  mark,
  pnl,
  fee,
  onQuantity,
}: {
  position: ContractPosition;
  mark: string | undefined;
  pnl: string | null;
  fee: { rate: string; known: boolean };
  onQuantity: (quantity: string) => void;
}) {
  const { t } = useTranslation();
  const scale = tradeScale();
  const priceScale = priceScaleOf(position.entryPrice);
  const [typed, setTyped] = useState(normalizeQuantity(position.quantity));
  const quantity = normalizeQuantity(typed);
  const all = normalizeQuantity(position.quantity);
  const valid = quantity !== '' && isPositive(quantity) && !lt(all, quantity);
  const closing =
    valid && mark && position.entryPrice && fee.known
      ? closeAmounts(
          {
            direction: position.orderDirection,
            entryPrice: position.entryPrice,
            quantity,
            margin:
              quantity === all ? position.margin : partShare(position.margin, quantity, all, scale),
          },
          mark,
          fee.rate,
          scale,
        )
      : undefined;
  return (
    <div className="trade-lines" data-testid="close-confirm">
      <Line label={position.productCode}>
        <SideTag position={position} />
      </Line>
      <Line label={t('trade_quantity')}>{quantityText(position.quantity)}</Line>
      <AmountField
        label={t('position_closeQuantity')}
        id="close-quantity"
        value={typed}
        error={typed !== '' && !valid ? translate('hint_closeQuantityAbove', [all]) : undefined}
        onChange={(value) => {
          setTyped(value);
          onQuantity(normalizeQuantity(value));
        }}
      />
      <Line label={t('position_markPrice')} testId="close-mark">
        {priceText(mark, priceScale)}
      </Line>
      <Line label={t('position_unrealizedPnl')}>
        <span dir="ltr" className={signClass(pnl)}>
          {signedMoney(pnl, scale)}
        </span>
      </Line>
      {closing && (
        <>
          <Line label={translate('trade_feeRate', [percentText(fee.rate)])} testId="close-fee">
            {money(closing.fee, scale)}
          </Line>
          <Line label={t('position_closeReturns')} testId="close-returns">
            {money(closing.returned, scale)}
          </Line>
        </>
      )}
      <p className="muted trade-note">{t('position_closeNote')}</p>
    </div>
  );
}

function OpenPositionCard({ position, onEdit }: LiveCardProps) {
  const { t } = useTranslation();
  const refresh = useRefreshTrading();
  const live = useLiveTicker(position.productType, position.productCode);
  const scale = tradeScale();
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
  // A close pays the fee of the opposite direction, on the notional at the closing price.
  const closeFee = useFeeRate(
    position.productType,
    POSITION_TYPE.contract,
    closingDirection(position.orderDirection),
  );
  // One request id per position and quantity: a retry after a lost answer gets the first close's
  // result; a close made, the next one gets a new id.
  const closeRequest = useRequestId('cc');

  const close = useSubmit(async () => {
    // The quantity typed in the dialog (all of it unless changed).
    const chosen = { quantity: normalizeQuantity(position.quantity) };
    const confirmed = await Dialog.confirm({
      title: t('position_closeTitle'),
      content: (
        <CloseConfirm
          position={position}
          mark={mark}
          pnl={pnl}
          fee={closeFee}
          onQuantity={(quantity) => {
            chosen.quantity = quantity;
          }}
        />
      ),
      confirmText: t('position_close'),
      cancelText: t('common_cancel'),
    });
    // Nothing typed: nothing to close.
    if (!confirmed || chosen.quantity === '' || !isPositive(chosen.quantity)) return;
    const whole = chosen.quantity === normalizeQuantity(position.quantity);
    const closed = await closeContract(
      position.id,
      closeRequest.idFor(`${position.id}:${position.quantity}:${chosen.quantity}`),
      whole ? undefined : chosen.quantity,
    ).finally(refresh);
    closeRequest.reset();
    showToast(
      translate('position_closedAt', [
        isolateLtr(priceText(closed.exitPrice, priceScale)),
        isolateLtr(signedMoney(closed.realizedPnl, scale)),
      ]),
    );
  });

  return (
    <ContractCard
      position={position}
      result={{ value: pnl, currency: position.currencyName, base: position.margin }}
      foot={
        <CardFoot time={position.openTime ? formatDateTime(position.openTime) : ''}>
          <CardActions
            position={position}
            onEdit={() => onEdit(position, mark)}
            action={close}
            label={t('position_close')}
            name="close"
          />
        </CardFoot>
      }
    >
      <Line label={t('trade_quantity')} testId={`position-${position.id}-quantity`}>
        {quantityText(position.quantity)}
      </Line>
      <Line label={t('trade_margin')}>{money(position.margin, scale)}</Line>
      <Line label={t('trade_entryPrice')}>{priceText(position.entryPrice, priceScale)}</Line>
      <Line label={t('position_markPrice')} testId={`position-${position.id}-mark`}>
        {priceText(mark, priceScale)}
      </Line>
      <Line label={t('trade_liquidationPrice')} testId={`position-${position.id}-liquidation`}>
        <span className="down">{priceText(position.liquidationPrice, priceScale)}</span>
      </Line>
      <Line label={t('trade_fee')}>{money(position.openFee, scale)}</Line>
      <LevelLines position={position} priceScale={priceScale} testId={`position-${position.id}`} />
    </ContractCard>
  );
}

function PendingCard({ position, onEdit }: LiveCardProps) {
  const { t } = useTranslation();
  const refresh = useRefreshTrading();
  const scale = tradeScale();
  const priceScale = priceScaleOf(position.limitPrice);
  const live = useLiveTicker(position.productType, position.productCode);
  const cancel = useSubmit(async () => {
    await cancelContract(position.id).finally(refresh);
    showToast(t('trade_orderCancelled'));
  });
  return (
    <ContractCard
      position={position}
      foot={
        <CardFoot time={formatDateTime(position.createTime)}>
          <CardActions
            position={position}
            onEdit={() => onEdit(position, position.limitPrice ?? undefined)}
            action={cancel}
            label={t('common_cancel')}
            name="cancel"
          />
        </CardFoot>
      }
    >
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
    </ContractCard>
  );
}

function HistoryCard({ position }: { position: ContractPosition }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const scale = tradeScale();
  const priceScale = priceScaleOf(position.entryPrice ?? position.limitPrice);
  const closed = position.status === CONTRACT_STATUS.closed;
  const fees = add(closed ? position.openFee : '0', position.closeFee ?? '0');
  const net = closed && position.realizedPnl ? sub(position.realizedPnl, fees) : undefined;
  const status = closed
    ? t(CLOSE_REASON_LABEL[position.closeReason ?? 1] ?? 'position_status_closed')
    : t(CONTRACT_STATUS_LABEL[position.status]!);
  return (
    <ContractCard
      position={position}
      status={status}
      result={
        closed
          ? { value: position.realizedPnl, currency: position.currencyName, realized: true }
          : undefined
      }
      foot={
        <>
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
            <div
              className="stack"
              style={{ gap: 8 }}
              data-testid={`position-${position.id}-evidence`}
            >
              <span className="muted trade-note">{t('position_evidenceNote')}</span>
              <EntryExitTicks position={position} priceScale={priceScale} />
            </div>
          )}
        </>
      }
    >
      {closed ? (
        <>
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
            <span dir="ltr" className={signClass(net)}>
              {signedMoney(net, scale)}
            </span>
          </Line>
        </>
      ) : (
        <>
          <Line label={t('trade_limitPrice')}>{priceText(position.limitPrice, priceScale)}</Line>
          <Line label={t('trade_quantity')}>{quantityText(position.quantity)}</Line>
        </>
      )}
    </ContractCard>
  );
}

export function ContractPositions() {
  const { t } = useTranslation();
  const book = useBook();
  const [editing, setEditing] = useState<{ position: ContractPosition; reference?: string }>();
  const live = useTradingRows(
    [TRADING_KEY.contracts, 'live'],
    () => fetchContracts([CONTRACT_STATUS.pending, CONTRACT_STATUS.open], 100),
    { live: (rows) => rows.length > 0 },
  );
  const history = usePagedRows({
    queryKey: [TRADING_KEY.contracts, 'history', book],
    fetchPage: (pageNum) =>
      fetchContracts([CONTRACT_STATUS.closed, CONTRACT_STATUS.cancelled], HISTORY_PAGE, pageNum),
    pageSize: HISTORY_PAGE,
  });
  const open = live.rows.filter((row) => row.status === CONTRACT_STATUS.open);
  const pending = live.rows.filter((row) => row.status === CONTRACT_STATUS.pending);
  const past = history.rows;
  const edit = (position: ContractPosition, reference: string | undefined) =>
    setEditing({ position, reference });

  return (
    <div className="stack" style={{ gap: 8 }} data-testid="contract-positions">
      <h2 className="section-title">
        {t('position_open')} {live.loaded ? `(${open.length})` : ''}
      </h2>
      <ListStatus list={live} count={open.length} empty={{ title: t('position_noOpen') }} />
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
      <ListStatus list={history} count={past.length} empty={{ title: t('position_noHistory') }} />
      {past.map((position) => (
        <HistoryCard key={position.id} position={position} />
      ))}
      <MoreButton list={history} />
      <TpSlPopup
        position={editing?.position}
        reference={editing?.reference}
        onClose={() => setEditing(undefined)}
      />
    </div>
  );
}
