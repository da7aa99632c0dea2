/**
 * Contracts (PRODUCT section 6, position type 1): long or short with leverage and isolated margin.
 *
 * Opening at market moves the margin (notional ÷ leverage) from the available balance into the
 * user's margin account and pays the open fee (notional × rate) at the current tick. A limit entry
 * rests with margin and fee frozen by a hold and fills at its limit when a tick reaches it.
 * Closing (by the user, the take-profit, the stop-loss or liquidation) happens at a tick's price:
 * the margin leaves the margin account, the price result is paid by or to the house (a loss never
 * beyond the margin), the close fee goes to the fee account and the rest to the available balance.
 * Liquidation comes at the first tick where equity (margin + result) is at or below the
 * maintenance margin (entry notional × the product's rate). Every fill keeps its tick.
 */
import {
  CLOSE_REASON,
  CONTRACT_STATUS,
  ORDER_DIRECTION,
  ORDER_TYPE,
  POSITION_TYPE,
  add,
  isMultipleOf,
  isPositive,
  lt,
  neg,
  normalize,
  scaleOf,
  sub,
  toScale,
  type CloseContractBody,
  type ContractListQuery,
  type ContractPosition,
  type LanguageKey,
  type OpenContractBody,
  type UpdateTpSlBody,
  cappedResult,
  closeAmounts,
  closingDirection,
  contractPreview,
  fillPrice,
  liquidationPrice,
  partShare,
  tpSlProblems,
} from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import { GroupCommit, type GroupWriter } from '../../db/group';
import type { Actor } from '../../http/actor';
import { assertAmount } from '../../lib/money-assert';
import { AppError } from '../../lib/errors';
import * as ledger from '../../ledger/ledger';
import type { ProductRow } from '../../market/repo';
import { currencyIn, type Currency } from '../settings';
import { fingerprint, orderStamp } from '../wallet';
import { notices } from '../messages';
import {
  cancelResting,
  currentTick,
  evidenceOf,
  feeRate,
  groupBy,
  OrderViews,
  type OrderContext,
  stopsOpening,
  tradableProduct,
  tradeCurrency,
  type TradingDeps,
} from './common';
import {
  closePositions,
  contractRealizedSince,
  fillPositions,
  findPart,
  findUserPosition,
  listLivePositions,
  listOpenPositions,
  lockPendingPositions,
  openPosition,
  openPositions,
  pagePositions,
  splitPositions,
  updatePositionTpSl,
  type OpenArgs,
  type OpenOrder,
  type PositionPart,
  type PositionRow,
} from './repo-contracts';
import { lockOpenOrders } from './repo';
import type { FiredTick, Trigger, TriggerOutcome, TriggerOwner } from './triggers';

const OWNER = 'contract';
/** Positions filled or closed by one tick per transaction. */
const BATCH = 500;
/** The journal entry of a market entry: margin and open fee. */
const OPEN_ENTRY = 'trade:contract_open';
/**
 * Groups of contract opens in the database at once; divides ledger.PLATFORM_SHARDS. Since groups
 * are written set by set (contract_open_many in sql/contract-open.sql), one lane beats two on a
 * two-core machine: the groups are larger, so PostgreSQL spends less per order (at 500 orders/s
 * 0.52-0.60 cores against 0.67-0.70; closed loop 1,336-1,403 orders/s against 1,022-1,318).
 */
const OPEN_LANES = 1;

const LONG = ORDER_DIRECTION.up;

/** Rows grouped by book and currency: one journal entry each. */
const groupByBook = <T extends { book: string; currency_id: number }>(rows: T[]): T[][] =>
  groupBy(rows, (row) => `${row.book}:${row.currency_id}`);

/** One open in its own statement, or opens that arrived together in one (group commit). */
function openWriter(db: Database): GroupWriter<OpenArgs, PositionRow> {
  return {
    one: (item) => openPosition(db, item),
    many: (items) => openPositions(db, items),
  };
}

export class Contracts implements TriggerOwner {
  /** Opens of requests that arrive together share one statement and one commit. */
  private readonly opens: GroupCommit<OpenArgs, PositionRow>;
  private readonly views: OrderViews<PositionRow, ContractPosition>;

  constructor(private readonly deps: TradingDeps) {
    deps.triggers.register(OWNER, this);
    this.views = new OrderViews(deps, 'contract_position', (row, context) =>
      this.toPosition(row, context),
    );
    // With more than one lane, a user's orders and the platform shard of their fees (user id mod
    // PLATFORM_SHARDS) stay in one lane, so the lanes share no locked row.
    this.opens = new GroupCommit(openWriter(deps.db), {
      lanes: OPEN_LANES,
      laneOf: (item) => Number(item.order.user_id) % OPEN_LANES,
    });
  }

  // ------------------------------------------------------------ triggers

  /** The triggers of a resting entry or an open position. */
  private triggersOf(row: PositionRow): Trigger[] {
    const long = row.direction === LONG;
    const base = { owner: OWNER, productId: row.product_id };
    if (row.status === CONTRACT_STATUS.pending) {
      return [
        {
          ...base,
          key: `${OWNER}:${row.id}:entry`,
          side: long ? 'atOrBelow' : 'atOrAbove',
          price: normalize(row.limit_price!),
          priority: 0,
          since: row.created_at.getTime(),
        },
      ];
    }
    if (row.status !== CONTRACT_STATUS.open) return [];
    const opened = row.opened_at!.getTime();
    const tpslSince = Math.max(opened, Number(row.tpsl_at ?? 0));
    const list: Trigger[] = [
      {
        ...base,
        key: `${OWNER}:${row.id}:liq`,
        side: long ? 'atOrBelow' : 'atOrAbove',
        price: normalize(row.liquidation_price!),
        priority: 2,
        since: opened,
      },
    ];
    // The take-profit fires on the winning side of the entry, the stop-loss on the losing side.
    const exits = [
      { kind: 'tp', price: row.take_profit, side: long ? 'atOrAbove' : 'atOrBelow' },
      { kind: 'sl', price: row.stop_loss, side: long ? 'atOrBelow' : 'atOrAbove' },
    ] as const;
    for (const { kind, price, side } of exits)
      if (price !== null)
        list.push({
          ...base,
          key: `${OWNER}:${row.id}:${kind}`,
          side,
          price: normalize(price),
          priority: 1,
          since: tpslSince,
        });
    return list;
  }

  private track(row: PositionRow): void {
    for (const kind of ['entry', 'liq', 'tp', 'sl'])
      this.deps.triggers.remove(`${OWNER}:${row.id}:${kind}`);
    for (const trigger of this.triggersOf(row)) this.deps.triggers.add(trigger);
  }

  async load(): Promise<Trigger[]> {
    const rows = await listLivePositions(this.deps.db);
    return rows.flatMap((row) => this.triggersOf(row));
  }

  /**
   * Fires the levels one tick crossed: resting entries fill and open positions close (take-profit,
   * stop-loss or liquidation, the first by priority when one tick crosses several), in batches of
   * one transaction with one journal entry per book.
   */
  async fire(triggers: Trigger[], tick: FiredTick): Promise<Map<string, TriggerOutcome>> {
    const outcomes = new Map<string, TriggerOutcome>();
    const product = this.deps.market.productById(tick.productId);
    const open = product ? this.deps.market.isOpen(product, tick.time) : false;
    const entries: number[] = [];
    const exits = new Map<number, number>();
    for (const trigger of triggers) {
      const [, idText, kind] = trigger.key.split(':');
      const id = Number(idText);
      // No fill outside the product's session, and no new position while it is halted or
      // hidden: the level waits for the next tick. Exits (take-profit, stop-loss, liquidation)
      // fire through a halt: it never locks a position (PRODUCT section 1, rule 8).
      if (!product || !open || (kind === 'entry' && stopsOpening(product))) {
        outcomes.set(trigger.key, 'keep');
        continue;
      }
      outcomes.set(trigger.key, 'done');
      if (kind === 'entry') entries.push(id);
      else if (!exits.has(id))
        exits.set(
          id,
          kind === 'tp'
            ? CLOSE_REASON.takeProfit
            : kind === 'sl'
              ? CLOSE_REASON.stopLoss
              : CLOSE_REASON.liquidation,
        );
    }
    for (let at = 0; at < entries.length; at += BATCH)
      await this.fillEntries(entries.slice(at, at + BATCH), tick);
    const closing = [...exits].map(([id, reason]) => ({ id, reason, requestId: null }));
    for (let at = 0; at < closing.length; at += BATCH)
      await this.closeMany(closing.slice(at, at + BATCH), tick);
    return outcomes;
  }

  // ------------------------------------------------------------ reads

  private toPosition(
    row: PositionRow,
    { currency, scale, priceScale, label, price }: OrderContext,
  ): ContractPosition {
    const money = (value: string | null) => (value === null ? null : toScale(value, scale));
    const now = row.status === CONTRACT_STATUS.open ? this.resultNow(row) : null;
    return {
      id: row.id,
      orderNo: row.order_no,
      ...label,
      orderDirection: row.direction,
      leverage: row.leverage,
      orderType: row.order_type,
      limitPrice: price(row.limit_price),
      quantity: normalize(row.quantity),
      entryPrice: price(row.entry_price),
      margin: toScale(row.margin, scale),
      openFee: toScale(row.open_fee, scale),
      takeProfit: price(row.take_profit),
      stopLoss: price(row.stop_loss),
      liquidationPrice: price(row.liquidation_price),
      maintenanceRate: normalize(row.maintenance_rate),
      status: row.status,
      closeReason: row.close_reason,
      exitPrice: price(row.exit_price),
      closeFee: money(row.close_fee),
      realizedPnl: money(row.realized_pnl),
      markPrice: now && toScale(now.price, priceScale),
      unrealizedPnl: now && toScale(now.result, scale),
      entry: evidenceOf(
        row as unknown as Record<string, unknown>,
        'entry',
        priceScale,
        toScale,
        'entry_tick_price',
      ),
      exit: evidenceOf(row as unknown as Record<string, unknown>, 'exit', priceScale, toScale),
      currencyName: currency.currencyName,
      createTime: row.created_at.toISOString(),
      openTime: row.opened_at?.toISOString() ?? null,
      closeTime: row.closed_at?.toISOString() ?? null,
      parentId: row.parent_id ?? null,
    };
  }

  async list(actor: Actor, query: ContractListQuery, lang: LanguageKey) {
    const codes = query.productCode ? [...this.productIdsByCode(query.productCode)] : null;
    const filter = {
      userId: actor.userId,
      book: actor.book,
      statuses: query.status ?? null,
      productIds: codes,
    };
    return this.views.page(pagePositions(this.deps.db, filter, query), lang);
  }

  private productIdsByCode(code: string): Set<number> {
    const ids = new Set<number>();
    for (const type of [1, 2, 3, 4]) {
      const product = this.deps.market.product(type, code.toUpperCase());
      if (product) ids.add(product.id);
    }
    return ids;
  }

  async detail(actor: Actor, id: number, lang: LanguageKey): Promise<ContractPosition> {
    const position = await this.views.ownedById(actor.userId, id, lang);
    if (!position) throw new AppError('hint_positionNotFound', 404, ['id']);
    return position;
  }

  /** Margin held by a user's open positions and their unrealized result, in the trade currency. */
  async openExposure(userId: number, book: ledger.Book): Promise<{ margin: string; pnl: string }> {
    const rows = await listOpenPositions(this.deps.db, userId, book);
    let margin = '0';
    let pnl = '0';
    for (const row of rows) {
      margin = add(margin, row.margin);
      const now = this.resultNow(row);
      if (now) pnl = add(pnl, now.result);
    }
    return { margin, pnl };
  }

  /**
   * An open position at its product's price now: that price and the result (a loss never beyond
   * the margin), unrounded; null while the product has no price.
   */
  private resultNow(row: PositionRow): { price: string; result: string } | null {
    const product = this.deps.market.productById(row.product_id);
    const ticker = product ? this.deps.market.tickerInfo(product) : undefined;
    if (!ticker) return null;
    const price = ticker.nowPrice;
    return {
      price,
      result: cappedResult(row.direction, row.entry_price!, price, row.quantity, row.margin),
    };
  }

  /** Results realized since a time: closed positions' results less open and close fees paid. */
  async realizedSince(userId: number, book: ledger.Book, since: Date): Promise<string> {
    const row = await contractRealizedSince(this.deps.db, userId, book, since);
    return sub(
      normalize(row?.results ?? '0'),
      add(normalize(row?.close_fees ?? '0'), normalize(row?.open_fees ?? '0')),
    );
  }

  // ------------------------------------------------------------ open

  private leverageOf(product: ProductRow, leverage: number): void {
    if (!product.leverages.includes(leverage))
      throw new AppError('hint_leverageUnavailable', 422, [leverage]);
  }

  /** Take-profit and stop-loss must lie on the right side of `reference` (and the liquidation). */
  private checkTpSl(
    direction: number,
    reference: string,
    takeProfit: string | undefined,
    stopLoss: string | undefined,
    liquidation: string | null,
    priceScale: number,
  ): void {
    const problems = tpSlProblems(
      direction,
      reference,
      takeProfit,
      stopLoss,
      liquidation ?? undefined,
      priceScale,
    );
    const problem = problems.takeProfit ?? problems.stopLoss;
    if (problem) throw new AppError(problem.key, 422, problem.params);
  }

  /**
   * Opens a position for the user. `notify: false` when the user is not to be told of each open
   * (a copy trade's copies: only failures are notified, and a 1,000-follower fan-out spent more
   * of the database on writing each copy's notification than on opening it).
   */
  async open(
    actor: Actor,
    body: OpenContractBody,
    lang: LanguageKey = 'en',
    { notify = true }: { notify?: boolean } = {},
  ): Promise<ContractPosition> {
    const product = tradableProduct(
      this.deps.market,
      body.productType,
      body.productCode,
      POSITION_TYPE.contract,
    );
    const hash = fingerprint({ ...body, requestId: undefined, product: product.id });
    let row: PositionRow;
    try {
      row = await this.place(actor, body, product, hash);
    } catch (error) {
      // A repeated request gets its first result even when it would be refused now.
      const repeated =
        error instanceof AppError
          ? await this.views.byRequestId(actor.userId, body.requestId, hash, lang)
          : null;
      if (repeated) return repeated;
      throw error;
    }
    if (row.request_hash !== hash) throw new AppError('hint_requestIdReused', 409);
    this.track(row);
    const position = await this.views.one(row, lang);
    this.tell(row, position);
    // Its open is one statement of its own (contract_open): the notification follows its commit.
    if (notify && row.status === CONTRACT_STATUS.open)
      this.deps.notices?.emit([this.notice(row, await this.views.currencies())]);
    return position;
  }

  /**
   * The owner's notification of a position's new state: opened (at market or a resting entry
   * filled) or closed (by its owner, take-profit, stop-loss or liquidation), with the price of the
   * tick that decided it.
   */
  private notice(row: PositionRow, currencies: Map<number, Currency>) {
    const product = this.deps.market.productById(row.product_id);
    // Prices as the product quotes them (its decimals).
    const price = (value: string | null) =>
      product ? toScale(value ?? '0', product.price_scale) : normalize(value ?? '0');
    const base = {
      userId: row.user_id,
      id: row.id,
      orderNo: row.order_no,
      product: product?.product_code ?? '',
    };
    if (row.status !== CONTRACT_STATUS.closed)
      return notices.contractOpened({ ...base, price: price(row.entry_price) });
    const scale = currencyIn(currencies, row.currency_id).scale;
    const end =
      row.close_reason === CLOSE_REASON.takeProfit
        ? 'takeProfit'
        : row.close_reason === CLOSE_REASON.stopLoss
          ? 'stopLoss'
          : row.close_reason === CLOSE_REASON.liquidation
            ? 'liquidated'
            : 'closed';
    return notices.contractEnded(
      {
        ...base,
        price: price(row.exit_price),
        pnl: toScale(row.realized_pnl ?? '0', scale),
      },
      end,
    );
  }

  /** Checks and sizes an order, then stores it and moves its money in one transaction. */
  private async place(
    actor: Actor,
    body: OpenContractBody,
    product: ProductRow,
    hash: string,
  ): Promise<PositionRow> {
    this.leverageOf(product, body.leverage);
    const now = this.deps.clock.now();
    if (!this.deps.market.isOpen(product, now.getTime()))
      throw new AppError('hint_marketClosed', 422);
    const tick = currentTick(this.deps.market, product);
    const currency = await tradeCurrency(this.deps.settings);
    const limit = body.orderType === ORDER_TYPE.limit ? body.price! : null;
    if (limit !== null && scaleOf(limit) > product.price_scale)
      throw new AppError('hint_priceDecimals', 422, [product.price_scale]);
    const { price, rests } = fillPrice(
      body.orderDirection,
      body.orderType,
      limit ?? undefined,
      tick.price,
    );
    const step = normalize(product.standard);
    const maintenanceRate = normalize(product.maintenance_rate);
    const sized = contractPreview({
      direction: body.orderDirection,
      leverage: body.leverage,
      price,
      quantity: body.quantity,
      margin: body.margin,
      step,
      feeRate: await feeRate(
        this.deps.settings,
        product.product_type,
        POSITION_TYPE.contract,
        body.orderDirection,
      ),
      maintenanceRate,
      priceScale: product.price_scale,
      scale: currency.scale,
    });
    if (!sized.ok)
      throw new AppError(
        sized.problem === 'step' ? 'hint_quantityStep' : 'hint_orderTooSmall',
        422,
        [step],
      );
    const { quantity, margin, fee, liquidationPrice: liquidation } = sized.preview;
    assertAmount(margin, 'contract margin', currency.scale);
    assertAmount(fee, 'contract open fee', currency.scale, 'nonNegative');
    this.checkTpSl(
      body.orderDirection,
      price,
      body.takeProfit,
      body.stopLoss,
      liquidation,
      product.price_scale,
    );
    const book = actor.book;
    // One statement (contract_open): the user's lock with the product's halt as the database has
    // it (a halt through another instance counts at once), the position (refused when the request
    // id is taken) and its money (sql/contract-open.sql).
    const order: OpenOrder = {
      user_id: actor.userId,
      book,
      product_id: product.id,
      currency_id: currency.id,
      direction: body.orderDirection,
      leverage: body.leverage,
      order_type: body.orderType,
      limit_price: limit,
      quantity,
      margin,
      open_fee: fee,
      maintenance_rate: maintenanceRate,
      take_profit: body.takeProfit ?? null,
      stop_loss: body.stopLoss ?? null,
      liquidation_price: rests ? null : liquidation,
      status: rests ? CONTRACT_STATUS.pending : CONTRACT_STATUS.open,
      entry_price: rests ? null : tick.price,
      entry_tick_price: rests ? null : tick.price,
      entry_time: rests ? null : tick.time,
      entry_source: rests ? null : tick.source,
      entry_sequence: rests ? null : tick.sequence,
      request_id: body.requestId,
      request_hash: hash,
      created_at: now,
      opened_at: rests ? null : now,
      tpsl_at: now.getTime(),
    };
    const postings = rests
      ? null
      : ledger.checkedPostings({
          book,
          type: OPEN_ENTRY,
          postings: this.openPostings(actor.userId, currency.id, margin, fee),
        });
    const args: OpenArgs = {
      order,
      prefix: orderStamp('C', now),
      hold: rests ? add(margin, fee) : null,
      entryType: rests ? 'contract_entry' : OPEN_ENTRY,
      postings,
    };
    try {
      return await this.writeOpen(args);
    } catch (error) {
      const { code } = error as { code?: string };
      if (code === 'BR404') throw new AppError('hint_productUnknown', 404);
      if (code === 'BR422') throw new AppError('hint_productHalted', 422);
      // An order under this request id exists: the caller reads it and compares the request.
      if (code === 'BR409') throw new AppError('hint_requestIdReused', 409);
      return ledger.mapLedgerError(error);
    }
  }

  /**
   * Writes one open: in the group commit of everyone's opens, or, for a lead trader's open at
   * market (copy trading), in a transaction of its own with the followers' queued copies, so the
   * position and its fan-out commit together. Traders are few: the group commit stays one
   * statement for everyone else.
   */
  private writeOpen(args: OpenArgs): Promise<PositionRow> {
    const hooks = this.deps.copyHooks;
    const { order } = args;
    if (!hooks || order.status !== CONTRACT_STATUS.open || !hooks.leads(order.user_id))
      return this.opens.write(args);
    return this.deps.db.transaction(async (tx) => {
      const row = await openPosition(tx, args);
      await hooks.opened(tx, [row]);
      return row;
    });
  }

  /** Margin from available into the margin account, and the open fee to the fee account. */
  private openPostings(
    userId: number,
    currencyId: number,
    margin: string,
    fee: string,
  ): ledger.PostingInput[] {
    const postings: ledger.PostingInput[] = [
      { account: ledger.user(userId, currencyId), amount: neg(add(margin, fee)) },
      { account: ledger.user(userId, currencyId, 'margin'), amount: margin },
    ];
    if (isPositive(fee))
      postings.push({ account: ledger.platform(currencyId, 'fees', userId), amount: fee });
    return postings;
  }

  private tell(row: PositionRow, position: ContractPosition): void {
    this.deps.notify?.(row.user_id, 'positions', { kind: 'contract', position });
    this.deps.notify?.(row.user_id, 'balances', { book: row.book, currencyId: row.currency_id });
  }

  /** Resting limit entries reached by a tick: each fills at its limit with what its hold froze. */
  private async fillEntries(ids: number[], tick: FiredTick): Promise<void> {
    const now = this.deps.clock.now();
    // Read before the transaction (see Database): the notifications' amounts need the scales.
    const currencies = await this.views.currencies();
    const filled = await this.deps.db.transaction(async (tx) => {
      const rows = await lockPendingPositions(tx, ids);
      if (rows.length === 0) return [];
      const liquidations = rows.map((position) =>
        liquidationPrice(
          position.direction,
          normalize(position.limit_price!),
          position.quantity,
          position.margin,
          position.maintenance_rate,
          this.deps.market.productById(position.product_id)!.price_scale,
        ),
      );
      for (const group of groupByBook(rows)) {
        const first = group[0]!;
        await ledger.captureHolds(tx, {
          book: first.book,
          currencyId: first.currency_id,
          type: 'trade:contract_fill',
          refType: 'tick',
          refId: `${tick.productId}:${tick.time}:${tick.sequence}`,
          holds: group.map((position) => ({
            holdId: position.hold_id!,
            parts: [
              {
                account: ledger.user(position.user_id, position.currency_id, 'margin'),
                amount: normalize(position.margin),
              },
              ...(isPositive(position.open_fee)
                ? [
                    {
                      account: ledger.platform(position.currency_id, 'fees', position.user_id),
                      amount: normalize(position.open_fee),
                    },
                  ]
                : []),
            ],
          })),
        });
      }
      const filled = await fillPositions(
        tx,
        rows.map((position, at) => ({ id: position.id, liquidation: liquidations[at]! })),
        tick,
        now,
      );
      const hooks = this.deps.copyHooks;
      const leaders = hooks ? filled.filter((position) => hooks.leads(position.user_id)) : [];
      if (leaders.length > 0) await hooks!.opened(tx, leaders);
      await this.deps.notices?.record(
        tx,
        filled.map((position) => this.notice(position, currencies)),
      );
      return filled;
    });
    await this.after(filled);
  }

  /**
   * After a commit: the rows' levels follow their new state and their users hear of them (their
   * notifications, written in the transaction, pushed now, unless `notify` is false).
   */
  private async after(rows: PositionRow[], notify = true): Promise<void> {
    if (rows.length === 0) return;
    const currencies = await this.views.currencies();
    for (const row of rows) {
      this.track(row);
      this.tell(row, this.views.show(row, currencies, 'en'));
    }
    if (notify) this.deps.notices?.push(rows.map((row) => this.notice(row, currencies)));
  }

  // ------------------------------------------------------------ close

  /**
   * Closes the user's position at the current tick, or only `quantity` of it (a partial close: a
   * multiple of the product's step below the open quantity; the whole quantity closes it all).
   * A partial close answers the part it closed (a closed position of its own, `parentId` the
   * position, which stays open with the rest). `notify: false` when the close is part of a larger
   * action the user is told of as one (a demo reset): no notification of its own.
   */
  async close(
    actor: Actor,
    body: CloseContractBody,
    lang: LanguageKey = 'en',
    { notify = true }: { notify?: boolean } = {},
  ): Promise<ContractPosition> {
    const row = await this.owned(actor, body.id);
    if (row.status === CONTRACT_STATUS.closed && row.close_request_id === body.requestId)
      return this.views.one(row, lang);
    // A partial close made under this request already: its part.
    const earlier = body.quantity ? await findPart(this.deps.db, row.id, body.requestId) : null;
    if (earlier) return this.views.one(earlier, lang);
    if (row.status !== CONTRACT_STATUS.open) throw new AppError('hint_positionNotOpen', 409);
    const product = this.deps.market.productById(row.product_id)!;
    let quantity = body.quantity === undefined ? undefined : normalize(body.quantity);
    if (quantity !== undefined) {
      const step = normalize(product.standard);
      if (!isMultipleOf(quantity, step)) throw new AppError('hint_quantityStep', 422, [step]);
      if (lt(normalize(row.quantity), quantity))
        throw new AppError('hint_closeQuantityAbove', 422, [normalize(row.quantity)]);
      // All of it: an ordinary close.
      if (!lt(quantity, normalize(row.quantity))) quantity = undefined;
    }
    if (!this.deps.market.isOpen(product, this.deps.clock.now().getTime()))
      throw new AppError('hint_marketClosed', 422);
    const tick = currentTick(this.deps.market, product);
    let closed: PositionRow | undefined;
    try {
      [closed] = await this.closeMany(
        [{ id: row.id, reason: CLOSE_REASON.manual, requestId: body.requestId, quantity }],
        { ...tick, productId: row.product_id },
        notify,
      );
    } catch (error) {
      // The same partial close sent twice at once: the first made the part (unique per request;
      // or what it left is now too little for the second): the part answers both.
      const part =
        quantity === undefined ? null : await findPart(this.deps.db, row.id, body.requestId);
      if (part) return this.views.one(part, lang);
      throw error;
    }
    if (closed) return this.views.one(closed, lang);
    // Closed meanwhile (a trigger or a concurrent request): the same request gets its result.
    const part =
      quantity === undefined ? null : await findPart(this.deps.db, row.id, body.requestId);
    if (part) return this.views.one(part, lang);
    const again = await this.owned(actor, body.id);
    if (again.close_request_id === body.requestId) return this.views.one(again, lang);
    throw new AppError('hint_positionNotOpen', 409);
  }

  private async owned(actor: Actor, id: number): Promise<PositionRow> {
    const row = await findUserPosition(this.deps.db, id, actor.userId, actor.book);
    if (!row) throw new AppError('hint_positionNotFound', 404, ['id']);
    return row;
  }

  /**
   * Closes open positions at a tick, once each: the rows are locked and must still be open (those
   * closed meanwhile are left out). One journal entry per book: each position's margin leaves the
   * margin account, the capped result comes from or goes to the house, the close fee to the fee
   * account and the rest to the available balance. Returns the rows it closed.
   *
   * An item with a `quantity` (below the position's) closes that part only: the part takes its
   * share of the margin (rounded down, so what stays open keeps at least its share) and of the
   * open fee, and moves as a whole close of that size would; it is split off as a closed row
   * (splitPositions) and the position stays open with the rest, its liquidation level computed
   * again for what is left (its triggers follow after the commit). Returned: the parts.
   */
  private async closeMany(
    items: { id: number; reason: number; requestId: string | null; quantity?: string }[],
    tick: FiredTick,
    notify = true,
  ): Promise<PositionRow[]> {
    const now = this.deps.clock.now();
    const currencies = await this.views.currencies();
    const product = this.deps.market.productById(tick.productId);
    const rates = new Map<number, string>();
    for (const direction of [ORDER_DIRECTION.up, ORDER_DIRECTION.down])
      rates.set(
        direction,
        await feeRate(
          this.deps.settings,
          product?.product_type ?? 0,
          POSITION_TYPE.contract,
          direction,
        ),
      );
    const byId = new Map(items.map((item) => [item.id, item]));
    let rests: PositionRow[] = [];
    const closed = await this.deps.db.transaction(async (tx) => {
      const ids = items.map((item) => item.id);
      const rows = await lockOpenOrders<PositionRow>(tx, 'contract_position', ids);
      if (rows.length === 0) return [];
      // What each row closes: all of it, or the part asked for.
      const closing = rows.map((position) =>
        this.closingPart(
          position,
          byId.get(position.id)!,
          currencyIn(currencies, position.currency_id).scale,
        ),
      );
      const amounts = rows.map((position, at) =>
        closeAmounts(
          {
            direction: position.direction,
            entryPrice: position.entry_price!,
            quantity: closing[at]!.quantity,
            margin: closing[at]!.margin,
          },
          tick.price,
          rates.get(closingDirection(position.direction))!,
          currencyIn(currencies, position.currency_id).scale,
        ),
      );
      const index = new Map(rows.map((position, at) => [position.id, at]));
      for (const group of groupByBook(rows)) {
        const first = group[0]!;
        const liquidation = group.every(
          (position) => byId.get(position.id)!.reason === CLOSE_REASON.liquidation,
        );
        await ledger.post(tx, {
          book: first.book,
          type: liquidation ? 'trade:contract_liquidation' : 'trade:contract_close',
          refType: group.length === 1 ? 'contract' : 'tick',
          refId: group.length === 1 ? first.id : `${tick.productId}:${tick.time}:${tick.sequence}`,
          postings: ledger.summed(
            group.flatMap((position) => {
              const at = index.get(position.id)!;
              const { result, fee, returned } = amounts[at]!;
              const currency = position.currency_id;
              return [
                {
                  account: ledger.user(position.user_id, currency, 'margin'),
                  amount: neg(closing[at]!.margin),
                },
                { account: ledger.user(position.user_id, currency), amount: returned },
                {
                  account: ledger.platform(currency, 'house', position.user_id),
                  amount: neg(result),
                },
                { account: ledger.platform(currency, 'fees', position.user_id), amount: fee },
              ];
            }),
          ),
        });
      }
      const whole = rows.flatMap((position, at) =>
        closing[at]!.part
          ? []
          : [
              {
                id: position.id,
                reason: byId.get(position.id)!.reason,
                fee: amounts[at]!.fee,
                result: amounts[at]!.result,
                requestId: byId.get(position.id)!.requestId,
              },
            ],
      );
      const parts: PositionPart[] = rows.flatMap((position, at) => {
        const part = closing[at]!.part;
        return part
          ? [
              {
                ...part,
                id: position.id,
                reason: byId.get(position.id)!.reason,
                fee: amounts[at]!.fee,
                result: amounts[at]!.result,
                requestId: byId.get(position.id)!.requestId!,
              },
            ]
          : [];
      });
      const ended = whole.length > 0 ? await closePositions(tx, whole, tick, now) : [];
      if (parts.length > 0) {
        const split = await splitPositions(tx, parts, tick, now);
        ended.push(...split.parts);
        rests = split.rests;
      }
      // Copy trading: a trader's closes queue the copies' closes, a copy's close adds to its
      // relation's result.
      await this.deps.copyHooks?.closed(tx, ended);
      if (notify)
        await this.deps.notices?.record(
          tx,
          ended.map((position) => this.notice(position, currencies)),
        );
      return ended;
    });
    await this.after(closed, notify);
    // What stays open of a partial close: its new levels, and its owner's screens (no notice).
    await this.after(rests, false);
    return closed;
  }

  /**
   * What a close item takes of a locked open position: all of it (`part` null), or the part of
   * `item.quantity` with its shares of the margin and open fee (rounded down) and the
   * liquidation level of the rest. A part no longer below the quantity (a partial close of the
   * same position meanwhile) or too small to carry any margin is refused.
   */
  private closingPart(
    position: PositionRow,
    item: { quantity?: string },
    scale: number,
  ): {
    quantity: string;
    margin: string;
    part: Pick<PositionPart, 'quantity' | 'margin' | 'openFee' | 'liquidation'> | null;
  } {
    const whole = { quantity: position.quantity, margin: position.margin, part: null };
    if (item.quantity === undefined) return whole;
    const all = normalize(position.quantity);
    if (!lt(item.quantity, all)) throw new AppError('hint_closeQuantityAbove', 422, [all]);
    const share = (amount: string) => partShare(amount, item.quantity!, all, scale);
    const margin = share(position.margin);
    const rest = normalize(sub(position.margin, margin));
    if (!isPositive(margin) || !isPositive(rest)) throw new AppError('hint_orderTooSmall', 422);
    const product = this.deps.market.productById(position.product_id)!;
    const left = normalize(sub(all, item.quantity));
    return {
      quantity: item.quantity,
      margin,
      part: {
        quantity: item.quantity,
        margin,
        openFee: share(position.open_fee),
        liquidation: liquidationPrice(
          position.direction,
          normalize(position.entry_price!),
          left,
          rest,
          position.maintenance_rate,
          product.price_scale,
        ),
      },
    };
  }

  // ------------------------------------------------------------ change and cancel

  async updateTpSl(
    actor: Actor,
    body: UpdateTpSlBody,
    lang: LanguageKey = 'en',
  ): Promise<ContractPosition> {
    const row = await this.owned(actor, body.id);
    if (row.status !== CONTRACT_STATUS.open && row.status !== CONTRACT_STATUS.pending)
      throw new AppError('hint_positionNotOpen', 409);
    const product = this.deps.market.productById(row.product_id)!;
    const reference =
      row.status === CONTRACT_STATUS.pending
        ? normalize(row.limit_price!)
        : currentTick(this.deps.market, product).price;
    const liquidation =
      row.liquidation_price ??
      liquidationPrice(
        row.direction,
        reference,
        row.quantity,
        row.margin,
        row.maintenance_rate,
        product.price_scale,
      );
    this.checkTpSl(
      row.direction,
      reference,
      body.takeProfit,
      body.stopLoss,
      normalize(liquidation),
      product.price_scale,
    );
    const now = this.deps.clock.now().getTime();
    const change = (q: Queryable) =>
      updatePositionTpSl(
        q,
        row.id,
        actor.userId,
        body.takeProfit ?? null,
        body.stopLoss ?? null,
        now,
      );
    // A lead trader's open position: the followers' mirrored change is queued with it.
    const hooks = this.deps.copyHooks;
    const updated =
      hooks && row.status === CONTRACT_STATUS.open && hooks.leads(row.user_id)
        ? await this.deps.db.transaction(async (tx) => {
            const changed = await change(tx);
            if (changed) await hooks.tpSlChanged(tx, changed);
            return changed;
          })
        : await change(this.deps.db);
    if (!updated) throw new AppError('hint_positionNotOpen', 409);
    this.track(updated);
    const position = await this.views.one(updated, lang);
    this.deps.notify?.(row.user_id, 'positions', { kind: 'contract', position });
    return position;
  }

  /**
   * Cancels a resting entry: its margin and fee return at once. One already cancelled answers as
   * it is (changed false: nothing to do); an entry that filled is refused.
   */
  async cancel(
    actor: Actor,
    id: number,
    lang: LanguageKey = 'en',
  ): Promise<{ position: ContractPosition; changed: boolean }> {
    await this.owned(actor, id);
    const { row, changed } = await cancelResting<PositionRow>(
      this.deps.db,
      {
        table: 'contract_position',
        id,
        resting: CONTRACT_STATUS.pending,
        cancelled: CONTRACT_STATUS.cancelled,
        now: this.deps.clock.now(),
      },
      async (tx, position) => {
        await ledger.release(tx, position.hold_id!, 'cancel');
      },
    );
    if (!changed) return { position: await this.views.one(row, lang), changed };
    this.track(row);
    const position = await this.views.one(row, lang);
    this.tell(row, position);
    return { position, changed: true };
  }
}
