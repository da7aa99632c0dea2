/**
 * Withdrawals: channels with their fees and limits, requests that freeze amount plus fee at once
 * (a ledger hold), cancellation while under review, and the operator's payment or rejection.
 * A request is refused while the account is held after a password change, with a wrong
 * withdrawal password (5 tries, then an hour's lock), or beyond the channel's limits.
 */
import {
  add,
  gt,
  isPositive,
  maskBankCard,
  maskWalletAddress,
  max,
  normalize,
  SWITCH,
  sub,
  toScale,
  withdrawalFee,
  WITHDRAW_CHANNEL_TYPE,
  WITHDRAW_STATUS,
  type OutMoneyBody,
  type WithdrawChannel,
  type WithdrawDestination,
  type WithdrawListQuery,
  type WithdrawRecord,
  type WithdrawTermsChange,
} from '@bourse/shared';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { runOnce } from '../../db/user-lock';
import { assertAmount } from '../../lib/money-assert';
import { AppError } from '../../lib/errors';
import * as ledger from '../../ledger/ledger';
import { currencyIn, type Currency } from '../settings';
import { channelsInForce, listTermsChanges, type ChannelTermsRow } from './terms';
import {
  checkAmount,
  fingerprint,
  iso,
  nextId,
  orderNumber,
  refuseDemo,
  requireCurrency,
  reviewOnce,
  startOfUtcDay,
  tellBalances,
  type WalletDeps,
} from './common';
import type {
  AuditWriter,
  ReviewActor,
  ReviewedWithdraw,
  ReviewListQuery,
  ReviewOutcome,
} from './review';

/** A channel with the terms in force (terms.ts: announced changes that became due laid over). */
interface ChannelRow extends ChannelTermsRow {
  channel_type: number;
  channel_name: string;
  network: string | null;
  remark: string;
}

interface WithdrawRow {
  id: number;
  order_no: string;
  user_id: number;
  user_account: string;
  channel_id: number;
  channel_name: string;
  currency_id: number;
  amount: string;
  fee: string;
  destination: WithdrawDestination;
  hold_id: number;
  status: number;
  reject_reason: string | null;
  request_hash: string;
  created_at: Date;
  closed_at: Date | null;
}

const SELECT_WITHDRAW = `
  SELECT w.id, w.order_no, w.user_id, u.user_account, w.channel_id, c.channel_name, w.currency_id,
         w.amount, w.fee, w.destination, w.hold_id, w.status, w.reject_reason, w.request_hash,
         w.created_at, w.closed_at
  FROM user_withdraw w
  JOIN withdraw_channel c ON c.id = w.channel_id
  JOIN app_user u ON u.id = w.user_id`;

/** Masking of what users see, from the switches; operators see destinations whole. */
interface Masks {
  card: boolean;
  address: boolean;
}

export class Withdrawals {
  constructor(private readonly deps: WalletDeps) {}

  private async currencies(): Promise<Map<number, Currency>> {
    return new Map((await this.deps.settings.currencies()).map((c) => [c.id, c]));
  }

  private async masks(): Promise<Masks> {
    const [card, address] = await Promise.all([
      this.deps.settings.switchOn(SWITCH.maskBankCard),
      this.deps.settings.switchOn(SWITCH.maskWalletAddress),
    ]);
    return { card, address };
  }

  /** What the user withdrew today (UTC) through a channel, under review or paid. */
  private async usedToday(q: Queryable, userId: number, channelIds: number[]) {
    const { rows } = await q.query<{ channel_id: number; used: string }>(
      `SELECT channel_id, sum(amount) AS used FROM user_withdraw
       WHERE user_id = $1 AND channel_id = ANY($2::int[]) AND status IN (${WITHDRAW_STATUS.reviewing}, ${WITHDRAW_STATUS.paid}) AND created_at >= $3
       GROUP BY channel_id`,
      [userId, channelIds, startOfUtcDay(this.deps.clock.now())],
    );
    return new Map(rows.map((row) => [row.channel_id, normalize(row.used)]));
  }

  async channels(actor: Actor, currencyId?: number): Promise<WithdrawChannel[]> {
    const [currencies, all] = await Promise.all([
      this.currencies(),
      channelsInForce<ChannelRow>(this.deps.db, this.deps.clock.now(), { currencyId }),
    ]);
    const rows = all.filter((row) => row.is_visible === 1);
    const used = await this.usedToday(
      this.deps.db,
      actor.userId,
      rows.map((row) => row.id),
    );
    return rows.flatMap((row) => {
      const currency = currencies.get(row.currency_id);
      if (!currency) return [];
      const scale = currency.scale;
      return [
        {
          id: row.id,
          channelType: row.channel_type,
          channelName: row.channel_name,
          currencyId: row.currency_id,
          currencyName: currency.currencyName,
          network: row.network,
          feeRate: normalize(row.fee_rate),
          fixedFee: toScale(row.fixed_fee, scale),
          minAmount: toScale(row.min_amount, scale),
          maxAmount: toScale(row.max_amount, scale),
          dailyLimit: toScale(row.daily_limit, scale),
          dailyRemaining: toScale(max('0', sub(row.daily_limit, used.get(row.id) ?? '0')), scale),
          scale,
          remark: row.remark,
        },
      ];
    });
  }

  /** The announced changes of withdrawal terms: pending, or in force for less than 30 days. */
  termsChanges(currencyId?: number): Promise<WithdrawTermsChange[]> {
    return listTermsChanges(this.deps, currencyId);
  }

  private toRecord(
    row: WithdrawRow,
    currencies: Map<number, Currency>,
    masks: Masks | null,
  ): ReviewedWithdraw {
    const currency = currencyIn(currencies, row.currency_id);
    const scale = currency.scale;
    const destination = { ...row.destination };
    if (masks?.card && destination.cardNumber)
      destination.cardNumber = maskBankCard(destination.cardNumber);
    if (masks?.address && destination.address)
      destination.address = maskWalletAddress(destination.address);
    return {
      id: row.id,
      orderNo: row.order_no,
      channelId: row.channel_id,
      channelName: row.channel_name,
      currencyId: row.currency_id,
      currencyName: currency.currencyName,
      amount: toScale(row.amount, scale),
      fee: toScale(row.fee, scale),
      totalAmount: toScale(add(row.amount, row.fee), scale),
      destination,
      status: row.status,
      rejectReason: row.reject_reason,
      createTime: row.created_at.toISOString(),
      closeTime: iso(row.closed_at),
      userId: row.user_id,
      userAccount: row.user_account,
    };
  }

  private static forUser({ userId: _, userAccount: __, ...record }: ReviewedWithdraw) {
    return record satisfies WithdrawRecord;
  }

  private async userView(row: WithdrawRow): Promise<WithdrawRecord> {
    const [currencies, masks] = await Promise.all([this.currencies(), this.masks()]);
    return Withdrawals.forUser(this.toRecord(row, currencies, masks));
  }

  private async find(q: Queryable, id: number, forUpdate = false): Promise<WithdrawRow | null> {
    const { rows } = await q.query<WithdrawRow>(
      `${SELECT_WITHDRAW} WHERE w.id = $1${forUpdate ? ' FOR UPDATE OF w' : ''}`,
      [id],
    );
    return rows[0] ?? null;
  }

  private async byRequestId(userId: number, requestId: string, hash: string) {
    const { rows } = await this.deps.db.query<WithdrawRow>(
      `${SELECT_WITHDRAW} WHERE w.user_id = $1 AND w.request_id = $2`,
      [userId, requestId],
    );
    const row = rows[0];
    if (!row) return null;
    if (row.request_hash !== hash) throw new AppError('hint_requestIdReused', 409);
    return this.userView(row);
  }

  /** The bound card or address the request names, checked against the channel. */
  private async destination(
    userId: number,
    channel: ChannelRow,
    body: OutMoneyBody,
  ): Promise<{ bankId: number | null; addressId: number | null; value: WithdrawDestination }> {
    if (channel.channel_type === WITHDRAW_CHANNEL_TYPE.bank) {
      if (!body.bankId) throw new AppError('hint_bankCardRequired', 400, ['bankId']);
      const { rows } = await this.deps.db.query<{ properties: Record<string, string> }>(
        'SELECT properties FROM user_bank WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL',
        [body.bankId, userId],
      );
      const card = rows[0];
      if (!card) throw new AppError('hint_bankCardNotFound', 404, ['bankId']);
      return {
        bankId: body.bankId,
        addressId: null,
        value: {
          kind: 'bank',
          bankName: card.properties.bankName ?? '',
          accountName: card.properties.accountName ?? '',
          cardNumber: (card.properties.cardNumber ?? '').replace(/\s+/g, ''),
        },
      };
    }
    if (!body.addressId) throw new AppError('hint_addressRequired', 400, ['addressId']);
    const { rows } = await this.deps.db.query<{
      currency_id: number;
      network: string;
      address: string;
    }>(
      `SELECT currency_id, network, address FROM user_wallet_address
       WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`,
      [body.addressId, userId],
    );
    const address = rows[0];
    if (!address) throw new AppError('hint_walletAddressNotFound', 404, ['addressId']);
    if (address.currency_id !== channel.currency_id || address.network !== channel.network)
      throw new AppError('hint_addressNetworkMismatch', 422, [channel.network ?? '']);
    return {
      bankId: null,
      addressId: body.addressId,
      value: { kind: 'address', network: address.network, address: address.address },
    };
  }

  /**
   * A withdrawal request: amount plus fee frozen at once, left for the operator to pay. It is
   * checked against the channel's terms in force now, and its fee is stored with it: a change of
   * the channel's terms that takes effect later never touches it (PRODUCT section 1.9).
   */
  async submit(actor: Actor, body: OutMoneyBody): Promise<WithdrawRecord> {
    refuseDemo(actor.book);
    const now = this.deps.clock.now();
    const channel = (
      await channelsInForce<ChannelRow>(this.deps.db, now, { id: body.channelId })
    ).find((row) => row.is_visible === 1);
    if (!channel) throw new AppError('hint_channelNotFound', 404, ['channelId']);
    const currency = await requireCurrency(this.deps.settings, channel.currency_id);
    const amount = normalize(body.amount);
    const hash = fingerprint({
      channelId: channel.id,
      amount,
      bankId: body.bankId,
      addressId: body.addressId,
    });
    const repeated = await this.byRequestId(actor.userId, body.requestId, hash);
    if (repeated) return repeated;

    checkAmount(amount, currency, channel.min_amount, channel.max_amount);
    const destination = await this.destination(actor.userId, channel, body);

    await this.deps.accounts.authorizeWithdrawal(actor.userId, body.withPwd);

    // The same function the app shows the fee with (packages/shared amounts.ts).
    const fee = withdrawalFee(
      amount,
      { feeRate: channel.fee_rate, fixedFee: channel.fixed_fee },
      currency.scale,
    );
    const total = add(amount, fee);
    assertAmount(fee, 'withdrawal fee', currency.scale, 'nonNegative');
    assertAmount(total, 'withdrawal total', currency.scale);
    // Requests of one user queue on the user lock, so the daily limit and the request id are exact.
    await runOnce(
      this.deps.db,
      'user_withdraw',
      { userId: actor.userId, requestId: body.requestId, fingerprint: hash },
      async (tx) => {
        const used = (await this.usedToday(tx, actor.userId, [channel.id])).get(channel.id) ?? '0';
        const remaining = max('0', sub(channel.daily_limit, used));
        if (gt(amount, remaining))
          throw new AppError('hint_withdrawDailyLimit', 422, [
            toScale(remaining, currency.scale),
            currency.currencyName,
          ]);
        const id = await nextId(tx, 'user_withdraw');
        const hold = await ledger.hold(tx, {
          book: 'live',
          userId: actor.userId,
          currencyId: channel.currency_id,
          amount: total,
          type: 'withdraw',
          refType: 'withdraw',
          refId: id,
        });
        await tx.query(
          `INSERT INTO user_withdraw (id, order_no, user_id, channel_id, currency_id, amount, fee, bank_id, address_id,
           destination, hold_id, request_id, request_hash, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
          [
            id,
            orderNumber('W', now, id),
            actor.userId,
            channel.id,
            channel.currency_id,
            amount,
            fee,
            destination.bankId,
            destination.addressId,
            JSON.stringify(destination.value),
            hold.id,
            body.requestId,
            hash,
            now,
          ],
        );
      },
      () => undefined,
    );
    // The request as stored: this one, or the same request id's first (then its body must match).
    const record = await this.byRequestId(actor.userId, body.requestId, hash);
    if (!record) throw new AppError('hint_requestIdReused', 409);
    tellBalances(this.deps, actor.userId, 'live', record.currencyId);
    return record;
  }

  async list(actor: Actor, query: WithdrawListQuery) {
    const { rows, total } = await this.listRows(
      { ...query, userId: actor.userId },
      await this.masks(),
    );
    return { rows: rows.map((row) => Withdrawals.forUser(row)), total };
  }

  async listRows(
    query: ReviewListQuery,
    masks: Masks | null = null,
  ): Promise<{ rows: ReviewedWithdraw[]; total: number }> {
    const params = [query.userId ?? null, query.status ?? null];
    const where =
      'WHERE ($1::bigint IS NULL OR w.user_id = $1) AND ($2::int IS NULL OR w.status = $2)';
    const [{ rows }, { rows: count }, currencies] = await Promise.all([
      this.deps.db.query<WithdrawRow>(
        `${SELECT_WITHDRAW} ${where} ORDER BY w.id DESC LIMIT $3 OFFSET $4`,
        [...params, query.pageSize, (query.pageNum - 1) * query.pageSize],
      ),
      this.deps.db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM user_withdraw w ${where}`,
        params,
      ),
      this.currencies(),
    ]);
    return {
      rows: rows.map((row) => this.toRecord(row, currencies, masks)),
      total: count[0]?.total ?? 0,
    };
  }

  async detail(actor: Actor, id: number): Promise<WithdrawRecord> {
    const row = await this.find(this.deps.db, id);
    if (!row || row.user_id !== actor.userId)
      throw new AppError('hint_withdrawNotFound', 404, ['id']);
    return this.userView(row);
  }

  /** The user takes back a request under review: the frozen funds return at once. */
  async cancel(actor: Actor, id: number): Promise<{ record: WithdrawRecord; changed: boolean }> {
    const now = this.deps.clock.now();
    const changed = await this.deps.db.transaction(async (tx) => {
      const row = await this.find(tx, id, true);
      if (!row || row.user_id !== actor.userId)
        throw new AppError('hint_withdrawNotFound', 404, ['id']);
      if (row.status === WITHDRAW_STATUS.cancelled) return false;
      if (row.status !== WITHDRAW_STATUS.reviewing) throw new AppError('hint_withdrawClosed', 409);
      await ledger.release(tx, row.hold_id, 'cancel');
      await tx.query(
        `UPDATE user_withdraw SET status = ${WITHDRAW_STATUS.cancelled}, closed_at = $2 WHERE id = $1`,
        [row.id, now],
      );
      return true;
    });
    const record = await this.detail(actor, id);
    if (changed) tellBalances(this.deps, actor.userId, 'live', record.currencyId);
    return { record, changed };
  }

  async pay(
    id: number,
    actor: ReviewActor,
    audit: AuditWriter,
  ): Promise<ReviewOutcome<ReviewedWithdraw>> {
    const outcome = await this.review(id, actor, audit, WITHDRAW_STATUS.paid, null);
    if (outcome.changed)
      tellBalances(this.deps, outcome.record.userId, 'live', outcome.record.currencyId);
    return outcome;
  }

  async reject(
    id: number,
    actor: ReviewActor,
    reason: string,
    audit: AuditWriter,
  ): Promise<ReviewOutcome<ReviewedWithdraw>> {
    const outcome = await this.review(id, actor, audit, WITHDRAW_STATUS.rejected, reason);
    if (outcome.changed)
      tellBalances(this.deps, outcome.record.userId, 'live', outcome.record.currencyId);
    return outcome;
  }

  /**
   * Paying captures the hold: the amount leaves to the outside world and the fee to the
   * platform's fee account. Rejecting releases it to the user's available balance.
   */
  private async review(
    id: number,
    actor: ReviewActor,
    audit: AuditWriter,
    status: 1 | 2,
    reason: string | null,
  ): Promise<ReviewOutcome<ReviewedWithdraw>> {
    const now = this.deps.clock.now();
    const currencies = await this.currencies();
    return reviewOnce(this.deps.db, {
      id,
      status,
      find: (q, rowId, forUpdate) => this.find(q, rowId, forUpdate),
      show: (row) => this.toRecord(row, currencies, null),
      notFoundKey: 'hint_withdrawNotFound',
      closedKey: 'hint_withdrawClosed',
      action: status === WITHDRAW_STATUS.paid ? 'withdraw.pay' : 'withdraw.reject',
      targetType: 'withdraw',
      audit,
      apply: async (tx, row) => {
        if (status === WITHDRAW_STATUS.paid) {
          await ledger.capture(tx, row.hold_id, {
            amount: normalize(row.amount),
            to: ledger.platform(row.currency_id, 'external'),
            type: 'withdraw',
          });
          if (isPositive(row.fee)) {
            await ledger.capture(tx, row.hold_id, {
              amount: normalize(row.fee),
              to: ledger.platform(row.currency_id, 'fees'),
              type: 'withdraw_fee',
            });
          }
        } else {
          await ledger.release(tx, row.hold_id, 'reject');
        }
        await tx.query(
          `UPDATE user_withdraw SET status = $2, reject_reason = $3, closed_at = $4, reviewed_by = $5
           WHERE id = $1`,
          [row.id, status, reason, now, actor.operatorId],
        );
      },
    });
  }
}
