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
  type RechargeRecord,
} from '@bourse/shared';
import type { Actor } from '../../http/actor';
import { AppError } from '../../lib/errors';
import * as ledger from '../../ledger/ledger';
import { currencyIn, type Currency } from '../settings';
import { channelAnswer, iso, openChannelRequest, tellBalances, type WalletDeps } from './common';
import { parseProofImage } from './proof-image';
import { ReviewFlow, type ReviewedRecharge } from './review';

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
  /**
   * The review of deposits: approval credits the deposit (one ledger entry from the outside world
   * to the user's available balance, once whatever the number of clicks); rejection moves nothing.
   */
  readonly review: ReviewFlow<RechargeRow, ReviewedRecharge, 'approve' | 'reject'>;

  constructor(private readonly deps: WalletDeps) {
    this.review = new ReviewFlow({
      db: deps.db,
      clock: deps.clock,
      table: 'user_recharge',
      alias: 'r',
      select: SELECT_RECHARGE,
      orderPrefix: 'R',
      reviewing: RECHARGE_STATUS.reviewing,
      decidedAt: 'reviewed_at',
      targetType: 'recharge',
      notFoundKey: 'hint_rechargeNotFound',
      closedKey: 'hint_reviewClosed',
      view: async () => {
        const currencies = await deps.settings.currencyMap();
        return (row) => this.toRecord(row, currencies);
      },
      decisions: {
        approve: {
          status: RECHARGE_STATUS.approved,
          by: 'operator',
          action: 'recharge.approve',
          apply: async (tx, row) => {
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
            return { entry_id: entry.entryId };
          },
          after: (row) => tellBalances(deps, row.user_id, 'live', row.currency_id),
        },
        reject: { status: RECHARGE_STATUS.rejected, by: 'operator', action: 'recharge.reject' },
      },
    });
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

  private toChannel(row: ChannelRow, currency: Currency): RechargeChannel {
    return {
      ...channelAnswer(row, currency),
      depositAddress: row.deposit_address,
      bankName: row.bank_name,
      accountName: row.account_name,
      accountNumber: row.account_number,
      payUrl: row.pay_url,
    };
  }

  async channels(currencyId?: number): Promise<RechargeChannel[]> {
    const [currencies, { rows }] = await Promise.all([
      this.deps.settings.currencyMap(),
      this.deps.db.query<ChannelRow>(
        `SELECT * FROM recharge_channel WHERE is_visible = 1 AND ($1::int IS NULL OR currency_id = $1)
         ORDER BY sort, id`,
        [currencyId ?? null],
      ),
    ]);
    return rows.map((row) => this.toChannel(row, currencyIn(currencies, row.currency_id)));
  }

  /** A deposit request: checked, stored with its proof, and left for review. */
  async submit(actor: Actor, body: InMoneyBody): Promise<RechargeRecord> {
    const request = await openChannelRequest(this.deps, actor, body, {
      review: this.review,
      channel: async () => {
        const { rows } = await this.deps.db.query<ChannelRow>(
          'SELECT * FROM recharge_channel WHERE id = $1 AND is_visible = 1',
          [body.channelId],
        );
        return rows[0];
      },
      fields: (channel, amount) => ({
        channelId: channel.id,
        amount,
        remark: body.remark,
        proof: null,
      }),
    });
    if (request.earlier) return request.earlier;
    const { key, channel, amount } = request;
    const needsProof = channel.channel_type !== RECHARGE_CHANNEL_TYPE.online;
    if (needsProof && !body.proofImage)
      throw new AppError('hint_proofRequired', 400, ['proofImage']);
    // Decoded and re-encoded (a JPEG without metadata) before the transaction: nothing is stored
    // unless the whole image is sound.
    const proof = body.proofImage ? await parseProofImage(body.proofImage) : null;
    const now = this.deps.clock.now();

    // One request at a time per user (the user lock): the pending count and the request id are
    // then exact.
    return this.review.submit(key, now, async (tx, request) => {
      const { rows: pending } = await tx.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM user_recharge WHERE user_id = $1 AND status = ${RECHARGE_STATUS.reviewing}`,
        [actor.userId],
      );
      if ((pending[0]?.count ?? 0) >= MAX_PENDING_RECHARGES)
        throw new AppError('hint_tooManyPendingRecharges', 422, [MAX_PENDING_RECHARGES]);
      await request.insert({
        channel_id: channel.id,
        currency_id: channel.currency_id,
        amount,
        remark: body.remark ?? null,
      });
      if (proof) {
        await tx.query(
          `INSERT INTO recharge_proof (recharge_id, mime, width, height, sha256, data)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [request.id, proof.mime, proof.width, proof.height, proof.sha256, proof.data],
        );
      }
    });
  }

  /** The payment proof, to its owner (`userId`) or to the console (no `userId`). */
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
}
