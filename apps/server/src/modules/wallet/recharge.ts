/**
 * Deposits: the channels users pay in through, their requests with a payment proof, and the
 * operator's review. Nothing is credited until an operator approves; approval posts one ledger
 * entry from the outside world to the user's available balance, exactly once.
 */
import {
  normalize,
  RECHARGE_CHANNEL_TYPE,
  RECHARGE_STATUS,
  toScale,
  type InMoneyBody,
  type RechargeChannel,
  type RechargeListQuery,
  type RechargeRecord,
} from '@bourse/shared';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { runOnce } from '../../db/user-lock';
import { AppError } from '../../lib/errors';
import * as ledger from '../../ledger/ledger';
import { currencyIn, type Currency } from '../settings';
import {
  checkAmount,
  fingerprint,
  iso,
  nextId,
  orderNumber,
  refuseDemo,
  requireCurrency,
  reviewOnce,
  tellBalances,
  type WalletDeps,
} from './common';
import { parseProofImage } from './proof-image';
import type {
  AuditWriter,
  ReviewActor,
  ReviewedRecharge,
  ReviewListQuery,
  ReviewOutcome,
} from './review';

/** Requests under review at once per user: enough for honest use, a brake on flooding. */
export const MAX_PENDING_RECHARGES = 10;

interface ChannelRow {
  id: number;
  channel_type: number;
  channel_name: string;
  currency_id: number;
  network: string | null;
  deposit_address: string | null;
  bank_name: string | null;
  account_name: string | null;
  account_number: string | null;
  pay_url: string | null;
  min_amount: string;
  max_amount: string;
  remark: string;
}

interface RechargeRow {
  id: number;
  order_no: string;
  user_id: number;
  user_account?: string;
  channel_id: number;
  channel_name: string;
  channel_type: number;
  currency_id: number;
  amount: string;
  status: number;
  reject_reason: string | null;
  remark: string | null;
  request_hash: string;
  has_proof: boolean;
  created_at: Date;
  reviewed_at: Date | null;
}

const SELECT_RECHARGE = `
  SELECT r.id, r.order_no, r.user_id, u.user_account, r.channel_id, c.channel_name, c.channel_type,
         r.currency_id, r.amount, r.status, r.reject_reason, r.remark, r.request_hash,
         EXISTS (SELECT 1 FROM recharge_proof p WHERE p.recharge_id = r.id) AS has_proof,
         r.created_at, r.reviewed_at
  FROM user_recharge r
  JOIN recharge_channel c ON c.id = r.channel_id
  JOIN app_user u ON u.id = r.user_id`;

export class Recharges {
  constructor(private readonly deps: WalletDeps) {}

  private async currencies(): Promise<Map<number, Currency>> {
    return new Map((await this.deps.settings.currencies()).map((c) => [c.id, c]));
  }

  private toChannel(row: ChannelRow, currency: Currency): RechargeChannel {
    const scale = currency.scale;
    return {
      id: row.id,
      channelType: row.channel_type,
      channelName: row.channel_name,
      currencyId: row.currency_id,
      currencyName: currency.currencyName,
      network: row.network,
      depositAddress: row.deposit_address,
      bankName: row.bank_name,
      accountName: row.account_name,
      accountNumber: row.account_number,
      payUrl: row.pay_url,
      minAmount: toScale(row.min_amount, scale),
      maxAmount: toScale(row.max_amount, scale),
      scale,
      remark: row.remark,
    };
  }

  async channels(currencyId?: number): Promise<RechargeChannel[]> {
    const [currencies, { rows }] = await Promise.all([
      this.currencies(),
      this.deps.db.query<ChannelRow>(
        `SELECT * FROM recharge_channel WHERE is_visible = 1 AND ($1::int IS NULL OR currency_id = $1)
         ORDER BY sort, id`,
        [currencyId ?? null],
      ),
    ]);
    return rows.map((row) => this.toChannel(row, currencyIn(currencies, row.currency_id)));
  }

  /** Currencies come from the settings cache, read before any transaction (see Database). */
  private toRecord(row: RechargeRow, currencies: Map<number, Currency>): ReviewedRecharge {
    const currency = currencyIn(currencies, row.currency_id);
    return {
      id: row.id,
      orderNo: row.order_no,
      channelId: row.channel_id,
      channelName: row.channel_name,
      channelType: row.channel_type,
      currencyId: row.currency_id,
      currencyName: currency.currencyName,
      amount: toScale(row.amount, currency.scale),
      status: row.status,
      rejectReason: row.reject_reason,
      remark: row.remark,
      hasProof: row.has_proof,
      createTime: row.created_at.toISOString(),
      reviewTime: iso(row.reviewed_at),
      userId: row.user_id,
      userAccount: row.user_account ?? '',
    };
  }

  private static forUser({ userId: _, userAccount: __, ...record }: ReviewedRecharge) {
    return record satisfies RechargeRecord;
  }

  private async find(q: Queryable, id: number, forUpdate = false): Promise<RechargeRow | null> {
    const { rows } = await q.query<RechargeRow>(
      `${SELECT_RECHARGE} WHERE r.id = $1${forUpdate ? ' FOR UPDATE OF r' : ''}`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** A deposit request: checked, stored with its proof, and left for review. */
  async submit(actor: Actor, body: InMoneyBody): Promise<RechargeRecord> {
    refuseDemo(actor.book);
    const { rows: channels } = await this.deps.db.query<ChannelRow>(
      'SELECT * FROM recharge_channel WHERE id = $1 AND is_visible = 1',
      [body.channelId],
    );
    const channel = channels[0];
    if (!channel) throw new AppError('hint_channelNotFound', 404, ['channelId']);
    const currency = await requireCurrency(this.deps.settings, channel.currency_id);
    const amount = normalize(body.amount);
    const hash = fingerprint({ channelId: channel.id, amount, remark: body.remark, proof: null });
    const repeated = await this.byRequestId(actor.userId, body.requestId, hash);
    if (repeated) return repeated;

    checkAmount(amount, currency, channel.min_amount, channel.max_amount);
    const needsProof = channel.channel_type !== RECHARGE_CHANNEL_TYPE.online;
    if (needsProof && !body.proofImage)
      throw new AppError('hint_proofRequired', 400, ['proofImage']);
    // Decoded and re-encoded (a JPEG without metadata) before the transaction: nothing is stored
    // unless the whole image is sound.
    const proof = body.proofImage ? await parseProofImage(body.proofImage) : null;
    const now = this.deps.clock.now();

    // One request at a time per user (the user lock): the pending count and the request id are
    // then exact.
    const id = await runOnce(
      this.deps.db,
      'user_recharge',
      { userId: actor.userId, requestId: body.requestId, fingerprint: hash },
      async (tx) => {
        const { rows: pending } = await tx.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM user_recharge WHERE user_id = $1 AND status = ${RECHARGE_STATUS.reviewing}`,
          [actor.userId],
        );
        if ((pending[0]?.count ?? 0) >= MAX_PENDING_RECHARGES)
          throw new AppError('hint_tooManyPendingRecharges', 422, [MAX_PENDING_RECHARGES]);
        const rechargeId = await nextId(tx, 'user_recharge');
        const { rows } = await tx.query<{ id: number }>(
          `INSERT INTO user_recharge (id, order_no, user_id, channel_id, currency_id, amount, remark, request_id, request_hash, created_at)
         VALUES ($10, $1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
          [
            orderNumber('R', now, rechargeId),
            actor.userId,
            channel.id,
            channel.currency_id,
            amount,
            body.remark ?? null,
            body.requestId,
            hash,
            now,
            rechargeId,
          ],
        );
        const recharge = rows[0]!;
        if (proof) {
          await tx.query(
            `INSERT INTO recharge_proof (recharge_id, mime, width, height, sha256, data)
           VALUES ($1, $2, $3, $4, $5, $6)`,
            [recharge.id, proof.mime, proof.width, proof.height, proof.sha256, proof.data],
          );
        }
        return recharge.id;
      },
      (_tx, earlier) => earlier,
    );
    return this.detail(actor, id);
  }

  /** The first answer to a request id, or a refusal when the id was used for another request. */
  private async byRequestId(
    userId: number,
    requestId: string,
    hash: string,
  ): Promise<RechargeRecord | null> {
    const { rows } = await this.deps.db.query<RechargeRow>(
      `${SELECT_RECHARGE} WHERE r.user_id = $1 AND r.request_id = $2`,
      [userId, requestId],
    );
    const row = rows[0];
    if (!row) return null;
    if (row.request_hash !== hash) throw new AppError('hint_requestIdReused', 409);
    return Recharges.forUser(this.toRecord(row, await this.currencies()));
  }

  async list(actor: Actor, query: RechargeListQuery) {
    const { rows, total } = await this.listRows({ ...query, userId: actor.userId });
    return { rows: rows.map((row) => Recharges.forUser(row)), total };
  }

  async listRows(query: ReviewListQuery): Promise<{ rows: ReviewedRecharge[]; total: number }> {
    const params = [query.userId ?? null, query.status ?? null];
    const where =
      'WHERE ($1::bigint IS NULL OR r.user_id = $1) AND ($2::int IS NULL OR r.status = $2)';
    const [{ rows }, { rows: count }] = await Promise.all([
      this.deps.db.query<RechargeRow>(
        `${SELECT_RECHARGE} ${where} ORDER BY r.id DESC LIMIT $3 OFFSET $4`,
        [...params, query.pageSize, (query.pageNum - 1) * query.pageSize],
      ),
      this.deps.db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM user_recharge r ${where}`,
        params,
      ),
    ]);
    const currencies = await this.currencies();
    return {
      rows: rows.map((row) => this.toRecord(row, currencies)),
      total: count[0]?.total ?? 0,
    };
  }

  async detail(actor: Actor, id: number): Promise<RechargeRecord> {
    const row = await this.find(this.deps.db, id);
    if (!row || row.user_id !== actor.userId)
      throw new AppError('hint_rechargeNotFound', 404, ['id']);
    return Recharges.forUser(this.toRecord(row, await this.currencies()));
  }

  async proof(id: number, userId?: number): Promise<{ mime: string; data: Uint8Array } | null> {
    const { rows } = await this.deps.db.query<{ mime: string; data: Uint8Array; user_id: number }>(
      `SELECT p.mime, p.data, r.user_id FROM recharge_proof p JOIN user_recharge r ON r.id = p.recharge_id
       WHERE p.recharge_id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row || (userId !== undefined && row.user_id !== userId)) return null;
    return { mime: row.mime, data: row.data };
  }

  /** Credits an approved deposit: once, whatever the number of clicks. */
  async approve(
    id: number,
    actor: ReviewActor,
    audit: AuditWriter,
  ): Promise<ReviewOutcome<ReviewedRecharge>> {
    const outcome = await this.review(id, actor, audit, RECHARGE_STATUS.approved, null);
    if (outcome.changed)
      tellBalances(this.deps, outcome.record.userId, 'live', outcome.record.currencyId);
    return outcome;
  }

  async reject(
    id: number,
    actor: ReviewActor,
    reason: string,
    audit: AuditWriter,
  ): Promise<ReviewOutcome<ReviewedRecharge>> {
    return this.review(id, actor, audit, RECHARGE_STATUS.rejected, reason);
  }

  private async review(
    id: number,
    actor: ReviewActor,
    audit: AuditWriter,
    status: 1 | 2,
    reason: string | null,
  ): Promise<ReviewOutcome<ReviewedRecharge>> {
    const now = this.deps.clock.now();
    const currencies = await this.currencies();
    return reviewOnce(this.deps.db, {
      id,
      status,
      find: (q, rowId, forUpdate) => this.find(q, rowId, forUpdate),
      show: (row) => this.toRecord(row, currencies),
      notFoundKey: 'hint_rechargeNotFound',
      closedKey: 'hint_reviewClosed',
      action: status === RECHARGE_STATUS.approved ? 'recharge.approve' : 'recharge.reject',
      targetType: 'recharge',
      audit,
      apply: async (tx, row) => {
        let entryId: number | null = null;
        if (status === RECHARGE_STATUS.approved) {
          const entry = await ledger.transfer(tx, {
            book: 'live',
            type: 'recharge',
            scope: 'platform',
            requestId: `recharge:${row.id}`,
            refType: 'recharge',
            refId: row.id,
            from: ledger.platform(row.currency_id, 'external'),
            to: ledger.user(row.user_id, row.currency_id, 'available'),
            amount: normalize(row.amount),
          });
          entryId = entry.entryId;
        }
        await tx.query(
          `UPDATE user_recharge SET status = $2, reject_reason = $3, entry_id = $4, reviewed_at = $5, reviewed_by = $6
           WHERE id = $1`,
          [row.id, status, reason, entryId, now, actor.operatorId],
        );
      },
    });
  }
}
